// The console's entry: sign in, then one view per hash route (#/stock, #/reservations, #/outbox).

import { authorize } from './api.js';
import { configuration, session as currentSession, signIn, signOut } from './auth.js';
import { h, say, show } from './dom.js';
import * as outbox from './outbox.js';
import * as reservations from './reservations.js';
import * as stock from './stock.js';

const VIEWS = { stock, reservations, outbox };
let current = null;

async function start() {
  const main = document.getElementById('view');
  let config;
  let session;
  try {
    config = await configuration();
    session = await currentSession(config);
  } catch (e) {
    show(main, h('h1', { tabindex: '-1' }, 'Stockhold console'), h('p', { class: 'error' }, e.message),
      h('p', {}, h('a', { href: './' }, 'Start again')));
    return;
  }
  if (!session) {
    showSignIn(main, config);
    return;
  }
  authorize(session.token, () => sessionEnded(session));
  showWho(session);
  window.addEventListener('hashchange', () => route(main, session));
  route(main, session);
}

function showSignIn(main, config) {
  const button = h('button', { type: 'button', onclick: () => signIn(config).catch((e) => say(e.message, 'error')) }, 'Sign in');
  show(main, h('h1', { tabindex: '-1' }, 'Stockhold console'),
    h('p', {}, config.issuer ? `Sign in with your organisation's account (${config.issuer}).`
      : 'Sign-in is not configured for this deployment: it sets STOCKHOLD_CONSOLE_ISSUER and STOCKHOLD_CONSOLE_CLIENT_ID.'),
    config.issuer ? button : null);
  document.querySelector('nav').hidden = true;
}

/** The API refused the token (expired, or its key was rotated away): offer a new sign-in, never loop into one. */
function sessionEnded(session) {
  say('The service no longer accepts your sign-in (401): sign in again.', 'error');
  if (session.via !== 'the dev token') {
    show(document.getElementById('who'), h('button', { type: 'button', onclick: signOut }, 'Sign in again'));
  }
}

function showWho(session) {
  const expires = session.expiresAt ? ` until ${new Date(session.expiresAt * 1000).toLocaleTimeString()}` : '';
  show(document.getElementById('who'),
    h('span', { 'data-fact': 'tenant' }, `Tenant ${session.tenant}`), ' · ',
    h('span', {}, `${session.user} (${session.roles.join(', ') || 'no role'})${expires}`), ' ',
    session.via === 'the dev token' ? h('span', { class: 'badge' }, 'dev token')
      : h('button', { type: 'button', onclick: signOut }, 'Sign out'));
}

function route(main, session) {
  const [name, query] = location.hash.replace(/^#\/?/, '').split('?');
  const view = VIEWS[name] || stock;
  current?.leave?.();
  current = view;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.view === (VIEWS[name] ? name : 'stock')) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  view.render(main, session, new URLSearchParams(query || ''));
  main.querySelector('h1')?.focus();
}

start();
