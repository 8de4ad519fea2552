// victor annotate: the tool's script. It runs in the tool's page and handles the page shown in
// the iframe from outside: the iframe is sandboxed without scripts, so nothing of the page runs,
// and the listeners below are the parent's own.
const token = document.querySelector('meta[name="victor-token"]').content;
const frame = document.getElementById('page');
const saveState = document.getElementById('save');
const hint = document.getElementById('hint');
const modelState = document.getElementById('model');

// Colours of the labels inside the page (unknown blocks hatched in amber); uncertain blocks
// (model pre-labelling) are outlined.
const PAGE_STYLE = `
v-b { cursor: pointer; }
v-b.vb-header { background: rgba(66, 133, 244, .45) !important; color: #000 !important; }
v-b.vb-text { background: rgba(76, 175, 80, .40) !important; color: #000 !important; }
v-b.vb-unknown { background: repeating-linear-gradient(135deg, rgba(255, 193, 7, .45) 0 5px, rgba(255, 193, 7, .12) 5px 10px) !important; color: #000 !important; }
v-b.vb-unsure { outline: 2px dashed #e65100; outline-offset: 1px; }
v-b.vb-start { outline: 3px solid #d50000 !important; }
v-b:hover { box-shadow: 0 0 0 1px #999; }
a[data-href] { cursor: pointer; }`;

const state = {
  pages: [],
  n: 0,
  labels: [],
  uncertain: new Set(),
  current: 'text',
  start: null,
  undo: [],
  blocks: [],
  // Clicks on blocks and key presses (label, undo), for measuring annotation effort.
  stats: { clicks: 0, keys: 0 },
  saved: 0,
  // The model that pre-labelled the page shown ({model, seen}, or null), and the server's
  // status: the model that pre-labels the pages opened next and the annotation loop's state.
  prelabelledBy: null,
  status: null,
};
window.victor = state;

function setLabel(label, byKey) {
  if (byKey) state.stats.keys += 1;
  state.current = label;
  for (const b of document.querySelectorAll('[data-label]')) {
    b.classList.toggle('active', b.dataset.label === label);
  }
}

function paint() {
  state.blocks.forEach((els, i) => {
    for (const el of els) {
      el.classList.toggle('vb-header', state.labels[i] === 'header');
      el.classList.toggle('vb-text', state.labels[i] === 'text');
      el.classList.toggle('vb-unknown', state.labels[i] === 'unknown');
      el.classList.toggle('vb-unsure', state.uncertain.has(i));
      el.classList.toggle('vb-start', state.start === i);
    }
  });
  hint.textContent = state.start === null
    ? `${state.current}: click the first block, then the last`
    : `${state.current}: now click the last block (Esc cancels)`;
}

// The model that pre-labels the pages opened next, how many pages it has seen, and with
// --adapt when it adapts next, or why the last adaptation failed.
function showStatus(st) {
  if (!st) return;
  const before = state.status;
  state.status = st;
  if (!st.model) { modelState.textContent = ''; return; }
  const seen = `seen ${st.seen} page${st.seen === 1 ? '' : 's'}`;
  let text = `model: ${st.model}, ${seen}`;
  modelState.className = '';
  const a = st.adapt;
  if (a) {
    text += ` · adapts every ${a.every} saved page${a.every === 1 ? '' : 's'} (${a.saved} saved`;
    text += a.running !== null ? `; adapting on ${a.running} pages…)` : `; next at ${a.next_at})`;
    if (a.error) {
      text += ` · adaptation failed: ${a.error}; the model stays`;
      modelState.className = 'error';
    }
    // A new model may have ranked the pages not yet shown again (--order uncertain).
    if (before && before.adapt && before.adapt.adaptations !== a.adaptations) refreshList();
  }
  modelState.textContent = text;
}

async function refreshList() {
  const r = await fetch('/api/pages');
  if (r.ok) state.pages = (await r.json()).pages;
}

async function save() {
  const n = state.n;
  saveState.textContent = 'saving…';
  saveState.className = '';
  try {
    const r = await fetch(`/api/page/${n}/labels`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-Victor-Token': token },
      body: JSON.stringify({ labels: state.labels }),
    });
    const answer = await r.json();
    if (!r.ok) throw new Error(answer.error || r.statusText);
    showStatus(answer.status);
    if (n === state.n) {
      state.saved += 1;
      saveState.textContent = state.labels.includes('unknown') ? 'saved (partial)' : 'saved';
      state.pages[n].annotated = true;
    }
  } catch (e) {
    saveState.textContent = `NOT saved: ${e.message}`;
    saveState.className = 'error';
  }
}

function blockOf(target) {
  if (!target || !target.closest) return null;
  const b = target.closest('v-b') || (target.querySelector && target.querySelector('v-b'));
  if (!b) return null;
  const i = Number(b.dataset.b);
  return Number.isInteger(i) && i < state.labels.length ? i : null;
}

function onClick(e) {
  // No click leaves the page (links and forms are disabled on the server too).
  e.preventDefault();
  e.stopPropagation();
  const i = blockOf(e.target);
  if (i === null) return;
  state.stats.clicks += 1;
  if (state.start === null) {
    state.start = i;
    paint();
    return;
  }
  const [lo, hi] = state.start <= i ? [state.start, i] : [i, state.start];
  state.start = null;
  state.undo.push(state.labels.slice());
  for (let k = lo; k <= hi; k++) state.labels[k] = state.current;
  paint();
  save();
}

function undo() {
  if (state.start !== null) { state.start = null; paint(); return; }
  const prev = state.undo.pop();
  if (!prev) return;
  state.labels = prev;
  paint();
  save();
}

function onKey(e) {
  if (e.ctrlKey || e.metaKey || e.altKey) {
    if ((e.ctrlKey || e.metaKey) && e.key === 'z') { e.preventDefault(); state.stats.keys += 1; undo(); }
    return;
  }
  const k = e.key;
  if (k === 'h') setLabel('header', true);
  else if (k === 't') setLabel('text', true);
  else if (k === 'o') setLabel('other', true);
  else if (k === 'x') setLabel('unknown', true);
  else if (k === 'u') { state.stats.keys += 1; undo(); }
  else if (k === 's') { state.stats.keys += 1; save(); }
  else if (k === 'Escape') { state.start = null; }
  else if (k === 'n' || k === 'ArrowRight') go(state.n + 1);
  else if (k === 'p' || k === 'ArrowLeft') go(state.n - 1);
  else return;
  e.preventDefault();
  paint();
}

function attach() {
  const doc = frame.contentDocument;
  // The iframe's first document is about:blank, and a page left quickly may still report.
  if (!doc || doc.location.pathname !== `/page/${state.n}`) return;
  const style = doc.createElement('style');
  style.textContent = PAGE_STYLE;
  (doc.head || doc.documentElement).appendChild(style);
  state.blocks = state.labels.map(() => []);
  for (const el of doc.querySelectorAll('v-b[data-b]')) {
    const i = Number(el.dataset.b);
    if (state.blocks[i]) state.blocks[i].push(el);
  }
  doc.addEventListener('click', onClick, true);
  doc.addEventListener('auxclick', (e) => e.preventDefault(), true);
  doc.addEventListener('submit', (e) => e.preventDefault(), true);
  doc.addEventListener('keydown', onKey, true);
  paint();
  document.body.dataset.ready = String(state.n);
}

async function go(n) {
  if (n < 0 || n >= state.pages.length) return;
  delete document.body.dataset.ready;
  const r = await fetch(`/api/page/${n}`);
  const info = await r.json();
  if (!r.ok) {
    saveState.textContent = `cannot open page: ${info.error}`;
    saveState.className = 'error';
    return;
  }
  state.n = n;
  state.labels = info.labels;
  state.prelabelledBy = info.prelabelled_by;
  showStatus(info.status);
  state.uncertain = new Set(info.uncertain);
  state.start = null;
  state.undo = [];
  document.getElementById('pos').textContent = `${n + 1} of ${state.pages.length}`;
  const by = info.prelabelled_by;
  document.getElementById('pageid').textContent = info.id + (!by ? ''
    : ` (pre-labelled by ${by.model}${by.seen ? ` adapted on ${by.seen} page${by.seen === 1 ? '' : 's'}` : ''})`);
  saveState.textContent = !info.annotated ? 'not annotated yet'
    : info.labels.includes('unknown') ? 'saved (partial)' : 'saved';
  saveState.className = '';
  history.replaceState(null, '', `#${n + 1}`);
  frame.src = `/page/${n}`;
}

frame.addEventListener('load', attach);
document.addEventListener('keydown', onKey);
for (const b of document.querySelectorAll('[data-label]')) {
  b.addEventListener('click', () => { setLabel(b.dataset.label, false); paint(); });
}
document.getElementById('undo').addEventListener('click', undo);
document.getElementById('accept').addEventListener('click', () => save());
document.getElementById('prev').addEventListener('click', () => go(state.n - 1));
document.getElementById('next').addEventListener('click', () => go(state.n + 1));

const list = await (await fetch('/api/pages')).json();
state.pages = list.pages;
showStatus(list.status);
// With the annotation loop, the bar follows the adaptations running in the background.
if (list.status && list.status.adapt) {
  setInterval(async () => {
    const r = await fetch('/api/status');
    if (r.ok) showStatus(await r.json());
  }, 1000);
}
setLabel('text', false);
const fromHash = Number(location.hash.slice(1)) - 1;
go(Number.isInteger(fromHash) && fromHash >= 0 ? Math.min(fromHash, state.pages.length - 1) : 0);
