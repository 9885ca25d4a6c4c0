package dev.stockhold.web;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.Validator;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;

/**
 * Reads request bodies exactly as docs/api.md types them: an integer is a JSON integer (not "2", not 2.0),
 * unknown and duplicate fields are refused, and every broken rule is named by its field.
 */
@ApplicationScoped
public class StrictJson {

    private final ObjectMapper mapper;
    private final Validator validator;

    StrictJson(ObjectMapper defaults, Validator validator) {
        this.validator = validator;
        JsonMapper strict = JsonMapper.builder(defaults.getFactory().copy())
                .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
                .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
                .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .build();
        for (LogicalType type : List.of(LogicalType.Integer, LogicalType.Float, LogicalType.Textual, LogicalType.Boolean)) {
            strict.coercionConfigFor(type)
                    .setCoercion(CoercionInputShape.String, type == LogicalType.Textual ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Integer, type == LogicalType.Integer ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, type == LogicalType.Float ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, type == LogicalType.Boolean ? CoercionAction.TryConvert : CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        this.mapper = strict;
    }

    /** Parses and validates a body; throws malformed-request or validation-failed, never anything else. */
    public <T> T read(byte[] body, Class<T> type) {
        if (body == null || isBlank(body)) {
            throw new MalformedRequestException("Request body is empty; a JSON object is required");
        }
        requireUtf8(body);
        T value;
        if (mayHoldUncleanText(body)) {
            JsonNode tree = tree(body);
            requireCleanText(tree, "");
            value = bind(tree, type);
        } else {
            // Most bodies: bound in one pass, and parsed again as a tree only when binding failed, to tell a broken
            // document (malformed-request, however far the binder got) from a field that breaks a rule
            try {
                value = mapper.readValue(body, type);
            } catch (IOException e) {
                tree(body);
                throw refusal(e);
            }
        }
        if (value == null) {
            throw new ValidationFailedException("body", "must be a JSON object");
        }
        validate(value);
        return value;
    }

    /** The document's tree; malformed-request when it is not JSON at all. */
    private JsonNode tree(byte[] body) {
        try {
            return mapper.readTree(body);
        } catch (IOException e) {
            throw new MalformedRequestException("Request body is not valid JSON");
        }
    }

    private <T> T bind(JsonNode tree, Class<T> type) {
        try {
            return mapper.treeToValue(tree, type);
        } catch (IOException e) {
            throw refusal(e);
        }
    }

    /** What a well-formed document that does not bind breaks: the field it names, or the body. */
    private static ValidationFailedException refusal(IOException e) {
        if (e instanceof JsonMappingException mapping) {
            return new ValidationFailedException(path(mapping), reason(mapping));
        }
        if (e instanceof StreamReadException read) {
            // e.g. a number too large for its field
            return new ValidationFailedException(path(read.getProcessor()), "has a value out of range");
        }
        return new ValidationFailedException("body", "does not match the expected shape");
    }

    /** Runs Bean Validation and turns every violation into a named field. */
    public void validate(Object value) {
        Set<ConstraintViolation<Object>> found = validator.validate(value);
        if (found.isEmpty()) {
            return;
        }
        List<Problem.Violation> violations = new ArrayList<>();
        for (ConstraintViolation<Object> v : found) {
            // "lines[0].<list element>" names the element itself: "lines[0]"
            String field = v.getPropertyPath().toString().replaceAll("\\.<[^>]+>", "");
            violations.add(new Problem.Violation(field, v.getMessage()));
        }
        violations.sort(Comparator.comparing(Problem.Violation::field));
        throw new ValidationFailedException(violations);
    }

    public ObjectMapper mapper() {
        return mapper;
    }

    /**
     * Whether the body can hold a NUL or an unpaired surrogate at all: the parser refuses a raw control character, so
     * either comes as a {@code \\u} escape or, for a surrogate, as UTF-8 bytes led by 0xED. Most bodies have neither,
     * and the reservation path skips the walk over their tree.
     */
    private static boolean mayHoldUncleanText(byte[] body) {
        for (int i = 0; i < body.length; i++) {
            if (body[i] == (byte) 0xED || body[i] == '\\' && i + 1 < body.length && body[i + 1] == 'u') {
                return true;
            }
        }
        return false;
    }

    /** Every string of the document, names and values, is valid Unicode without NUL (Text); else 400 naming it. */
    private static void requireCleanText(JsonNode node, String path) {
        if (node.isTextual() && !Text.isClean(node.textValue())) {
            throw new ValidationFailedException(path.isEmpty() ? "body" : path, Text.UNCLEAN);
        }
        if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                requireCleanText(node.get(i), path + "[" + i + "]");
            }
        } else if (node.isObject()) {
            for (var fields = node.fields(); fields.hasNext();) {
                var field = fields.next();
                String name = path.isEmpty() ? field.getKey() : path + "." + field.getKey();
                if (!Text.isClean(field.getKey())) {
                    throw new ValidationFailedException(path.isEmpty() ? "body" : path, "has a field name that " + Text.UNCLEAN);
                }
                requireCleanText(field.getValue(), name);
            }
        }
    }

    /**
     * JSON bodies are UTF-8 (RFC 8259 section 8.1). The parser would otherwise detect UTF-16 or UTF-32 from the first
     * bytes and decode them by its own, more lenient, rules (a lone surrogate becomes U+FFFD and swallows the next
     * character), so two different bodies could read as one. Every JSON text in another of those encodings has a zero
     * byte (its structural characters are ASCII) or a byte-order mark, and no UTF-8 JSON text has either: a raw NUL is
     * not allowed in JSON.
     */
    static void requireUtf8(byte[] body) {
        boolean bom = body.length >= 2 && ((body[0] & 0xFF) == 0xFE && (body[1] & 0xFF) == 0xFF
                || (body[0] & 0xFF) == 0xFF && (body[1] & 0xFF) == 0xFE);
        for (int i = 0; !bom && i < body.length; i++) {
            bom = body[i] == 0;
        }
        if (bom) {
            throw new ProblemException(ProblemType.UNSUPPORTED_MEDIA_TYPE,
                    "Request bodies must be JSON encoded as UTF-8 (RFC 8259 section 8.1); this one is UTF-16 or UTF-32");
        }
    }

    private static boolean isBlank(byte[] body) {
        for (byte b : body) {
            if (b != ' ' && b != '\n' && b != '\r' && b != '\t') {
                return false;
            }
        }
        return true;
    }

    private static String reason(JsonMappingException e) {
        String message = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        if (message.startsWith("Unrecognized field")) {
            return "is not a known field";
        }
        if (message.contains("Duplicate field")) {
            return "appears more than once";
        }
        if (message.contains("out of range")) {
            return "has a value out of range";
        }
        return "has the wrong type";
    }

    private static String path(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            } else if (ref.getFieldName() != null) {
                path.append(path.length() == 0 ? "" : ".").append(ref.getFieldName());
            }
        }
        return path.length() == 0 ? "body" : path.toString();
    }

    private static String path(Object processor) {
        if (!(processor instanceof JsonParser parser)) {
            return "body";
        }
        List<String> parts = new ArrayList<>();
        for (JsonStreamContext ctx = parser.getParsingContext(); ctx != null && !ctx.inRoot(); ctx = ctx.getParent()) {
            parts.add(0, ctx.inArray() ? "[" + ctx.getCurrentIndex() + "]" : "." + ctx.getCurrentName());
        }
        String joined = String.join("", parts);
        joined = joined.startsWith(".") ? joined.substring(1) : joined;
        return joined.isEmpty() ? "body" : joined;
    }
}
