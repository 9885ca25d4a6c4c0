// Sign-in: OpenID Connect authorization code with PKCE (RFC 7636), as a public client. The console keeps the access
// token in this tab's sessionStorage only; the service keeps nothing. Dev mode hands over its dev token instead.

const TOKEN = 'stockhold.console.token';
const PENDING = 'stockhold.console.pending';

/** The console's configuration from the service: issuer, clientId, scope, and in dev mode devToken. */
export async function configuration() {
  const answer = await fetch('config.json', { cache: 'no-store' });
  if (!answer.ok) throw new Error(`The console's configuration could not be read (${answer.status})`);
  return answer.json();
}

/** The signed-in session, finishing a sign-in the identity provider sent back here; null when nobody is signed in. */
export async function session(config) {
  if (config.devToken) return open(config.devToken, 'the dev token');
  const params = new URLSearchParams(location.search);
  if (params.has('code') || params.has('error')) return open(await complete(config, params), config.issuer);
  const saved = sessionStorage.getItem(TOKEN);
  return saved && !expired(claims(saved)) ? open(saved, config.issuer) : null;
}

function open(token, via) {
  const c = claims(token);
  return { token, via, tenant: c.tenant_id, user: c.preferred_username || c.upn || c.sub, roles: c.groups || [], expiresAt: c.exp };
}

/** Sends the browser to the identity provider; it comes back to this page with a code. */
export async function signIn(config) {
  if (!config.issuer) throw new Error('Sign-in is not configured: the deployment sets STOCKHOLD_CONSOLE_ISSUER.');
  const provider = await discover(config.issuer);
  const pending = { verifier: random(), state: random(), nonce: random(), returnTo: location.hash };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(provider.authorization_endpoint);
  const query = {
    response_type: 'code', client_id: config.clientId, redirect_uri: redirectUri(), scope: config.scope,
    state: pending.state, nonce: pending.nonce, code_challenge: await challenge(pending.verifier), code_challenge_method: 'S256',
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  location.assign(url.href);
}

export function signOut() {
  sessionStorage.removeItem(TOKEN);
  location.replace(redirectUri());
}

/** Where the provider sends the browser back: this page, without query or fragment (register it at the provider). */
export function redirectUri() {
  return new URL('./', location.href).href.split(/[?#]/)[0];
}

async function complete(config, params) {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) || 'null');
  sessionStorage.removeItem(PENDING);
  history.replaceState(null, '', location.pathname + (pending?.returnTo || ''));
  if (params.has('error')) {
    throw new Error(`The identity provider refused the sign-in: ${params.get('error')} ${params.get('error_description') || ''}`);
  }
  if (!pending || params.get('state') !== pending.state) {
    throw new Error('This sign-in answer does not belong to a sign-in started here (state differs); sign in again.');
  }
  const provider = await discover(config.issuer);
  const form = new URLSearchParams({
    grant_type: 'authorization_code', code: params.get('code'), redirect_uri: redirectUri(), client_id: config.clientId,
    code_verifier: pending.verifier,
  });
  const answer = await fetch(provider.token_endpoint, { method: 'POST', body: form });
  const tokens = await answer.json().catch(() => ({}));
  if (!answer.ok || !tokens.access_token) {
    throw new Error(`The identity provider did not give a token: ${tokens.error || answer.status} ${tokens.error_description || ''}`);
  }
  if (tokens.id_token && claims(tokens.id_token).nonce !== pending.nonce) {
    throw new Error('The ID token does not carry the nonce of this sign-in; refused.');
  }
  sessionStorage.setItem(TOKEN, tokens.access_token);
  return tokens.access_token;
}

async function discover(issuer) {
  const answer = await fetch(`${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`);
  if (!answer.ok) throw new Error(`The identity provider's discovery document could not be read (${answer.status})`);
  const provider = await answer.json();
  if (provider.issuer !== issuer) throw new Error(`The discovery document names issuer ${provider.issuer}, not ${issuer}`);
  return provider;
}

/** A token's claims, read for display and to offer what the roles allow; the service verifies every request. */
export function claims(jwt) {
  try {
    const part = jwt.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
    return JSON.parse(new TextDecoder().decode(Uint8Array.from(atob(part), (c) => c.charCodeAt(0))));
  } catch {
    return {};
  }
}

function expired(c) {
  return !c.exp || c.exp * 1000 <= Date.now();
}

function random() {
  return base64url(crypto.getRandomValues(new Uint8Array(32)));
}

async function challenge(verifier) {
  return base64url(new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))));
}

function base64url(bytes) {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
