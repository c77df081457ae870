// The page's one script (plain JavaScript the browser runs as it is; no framework, nothing loaded): it reads
// the view stream (EventSource on /api/stream, reconnecting by itself), puts each panel's HTML — escaped by
// the server — in its place, follows the selected set in the URL's fragment, and drives the buttons: a dry run
// first (the server's answer shown in the confirmation), then on Confirm the action itself, whose answer is
// kept in the page. Everything the user typed or the server answered is set as text, never as HTML.

export const DASHBOARD_SCRIPT = `
'use strict';
const token = document.querySelector('meta[name="ordinal-dashboard-token"]').content;
const $ = (id) => document.getElementById(id);
let selected = decodeURIComponent(location.hash.slice(1)) || undefined;
let source;
let detail;
let pending;

function connection(text, ok) {
  const c = $('connection');
  c.textContent = text;
  c.className = 'badge ' + (ok ? 'badge-done' : 'badge-failed');
}

function connect() {
  if (source) source.close();
  source = new EventSource('/api/stream' + (selected ? '?set=' + encodeURIComponent(selected) : ''));
  source.addEventListener('open', () => connection('live', true));
  source.addEventListener('error', () => connection('reconnecting…', false));
  source.addEventListener('view', (e) => render(JSON.parse(e.data)));
  source.addEventListener('failure', (e) => showProblems([JSON.parse(e.data).message]));
}

function showProblems(problems) {
  const box = $('problems');
  box.replaceChildren(...problems.map((p) => { const el = document.createElement('p'); el.className = 'bad'; el.textContent = p; return el; }));
}

function setHtml(id, html) {
  const el = $(id);
  if (el.dataset.html !== html) { el.innerHTML = html; el.dataset.html = html; }
}

function render(v) {
  showProblems(v.problems);
  setHtml('sets', v.sets);
  $('updated').textContent = 'as of ' + new Date(v.now).toLocaleTimeString();
  const d = v.detail;
  $('detail').hidden = d === undefined;
  $('gone').hidden = !(d && d.gone);
  $('detail-body').hidden = !d || d.gone === true;
  if (!d || d.gone) { detail = undefined; return; }
  detail = d;
  $('detail-title').textContent = d.title;
  setHtml('detail-state', d.state);
  for (const k of ['message', 'counts', 'step', 'eta']) $('detail-' + k).textContent = d[k];
  $('detail-origin').textContent = new Date(d.origin).toLocaleTimeString();
  for (const k of ['legend', 'timeline', 'counters', 'why', 'plan', 'events']) setHtml('detail-' + k, d[k]);
  const select = $('forecast-container');
  if ([...select.options].map((o) => o.value).join() !== d.containers.join()) {
    select.replaceChildren(...d.containers.map((c) => new Option(c, c)));
  }
}

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json', 'x-ordinal-dashboard-token': token }, body: JSON.stringify(body) });
  const answer = await res.json();
  if (!res.ok) throw new Error(answer.error || res.statusText);
  return answer;
}

function answerText(a) {
  return (a.stdout + a.stderr).trim() || '(no output, exit code ' + a.exitCode + ')';
}

function request(verb, full, dryRun) {
  return { namespace: detail.namespace, set: detail.set, verb, dryRun, ...(full ? { full: true } : {}) };
}

async function confirmAction(verb, full) {
  if (!detail) return;
  pending = { verb, full };
  $('confirm-title').textContent = verb + (full ? ' (every remaining step)' : '') + ' ' + detail.set + ' in ' + detail.namespace + '?';
  $('confirm-command').textContent = 'kubectl ordinal rollout ' + verb + ' ' + detail.set + ' -n ' + detail.namespace + (full ? ' --full' : '');
  $('confirm-dry-run').textContent = 'asking the server (dry run)…';
  $('confirm-dry-run').className = '';
  $('confirm-ok').disabled = true;
  $('confirm').showModal();
  try {
    const a = await post('/api/action', request(verb, full, true));
    $('confirm-dry-run').textContent = answerText(a);
    $('confirm-dry-run').className = a.exitCode === 0 ? 'ok' : 'bad';
  } catch (e) {
    $('confirm-dry-run').textContent = 'error: ' + e.message;
    $('confirm-dry-run').className = 'bad';
  }
  $('confirm-ok').disabled = false;
}

function showAnswer(command, text, ok) {
  const box = document.createElement('div');
  box.className = 'answer ' + (ok ? 'answer-ok' : 'answer-bad');
  const head = document.createElement('code');
  head.textContent = new Date().toLocaleTimeString() + '  ' + command;
  const body = document.createElement('pre');
  body.textContent = text;
  box.append(head, body);
  $('answers').prepend(box);
}

async function runConfirmed() {
  const { verb, full } = pending;
  $('confirm').close();
  try {
    const a = await post('/api/action', request(verb, full, false));
    showAnswer(a.command, answerText(a), a.exitCode === 0);
  } catch (e) {
    showAnswer(verb, 'error: ' + e.message, false);
  }
}

async function forecast() {
  if (!detail) return;
  const image = $('forecast-image').value.trim();
  const setting = $('forecast-setting').value.trim();
  const body = { namespace: detail.namespace, set: detail.set, images: image ? [$('forecast-container').value + '=' + image] : [], settings: setting ? [setting] : [] };
  const out = $('forecast-answer');
  out.textContent = 'forecasting…';
  out.className = '';
  $('forecast-run').disabled = true;
  try {
    const a = await post('/api/forecast', body);
    out.textContent = a.command + '\\n\\n' + answerText(a);
    out.className = a.exitCode === 0 ? '' : 'bad';
  } catch (e) {
    out.textContent = 'error: ' + e.message;
    out.className = 'bad';
  }
  $('forecast-run').disabled = false;
}

for (const b of document.querySelectorAll('#actions button')) b.addEventListener('click', () => confirmAction(b.dataset.verb, b.dataset.full === 'true'));
$('confirm-ok').addEventListener('click', runConfirmed);
$('confirm-cancel').addEventListener('click', () => $('confirm').close());
$('forecast-run').addEventListener('click', forecast);
window.addEventListener('hashchange', () => { selected = decodeURIComponent(location.hash.slice(1)) || undefined; connect(); });
connect();
`;
