// Parses and validates an AsyncAPI document with the AsyncAPI initiative's own parser; prints every diagnostic and
// exits non-zero on an error. Run by AsyncApiDocumentTest: node asyncapi-validate.mjs docs/asyncapi.yaml
import { Parser } from '@asyncapi/parser';
import { readFileSync } from 'fs';

const { document, diagnostics } = await new Parser().parse(readFileSync(process.argv[2], 'utf8'));
for (const d of diagnostics) {
  console.log(['error', 'warning', 'info', 'hint'][d.severity], d.code, d.path.join('.'), d.message);
}
const errors = diagnostics.filter(d => d.severity === 0).length;
console.log(document ? `parsed: ${document.allMessages().length} messages, ${document.allChannels().length} channels` : 'not parsed');
process.exit(errors === 0 && document ? 0 : 1);
