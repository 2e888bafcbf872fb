// The demo's entry point: loads the WebAssembly module, then shows one view at a time
// (#fingerprint, #compare, #steps, #index). Each view draws what simprint computes.
import init from '../pkg/simprint.js';
import { $ } from './common.js';
import * as fingerprint from './view-fingerprint.js';
import * as compare from './view-compare.js';
import * as steps from './view-steps.js';
import * as indexView from './view-index.js';

const MODULES = { fingerprint, compare, steps, index: indexView };
const views = {};

function route() {
  const name = location.hash.slice(1) in MODULES ? location.hash.slice(1) : 'fingerprint';
  for (const key of Object.keys(MODULES)) {
    $(`view-${key}`).hidden = key !== name;
  }
  for (const link of document.querySelectorAll('.tabs a')) {
    if (link.dataset.view === name) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  views[name].show();
  document.body.dataset.view = name;
}

const loading = $('loading');
try {
  await init();
} catch (error) {
  loading.textContent = `Error: the WebAssembly module did not load: ${error.message ?? error}`;
  loading.classList.add('error');
  throw error;
}
loading.hidden = true;
for (const [name, module] of Object.entries(MODULES)) views[name] = module.setup();
window.addEventListener('hashchange', route);
route();
