// The page of `puzzle-qa watch --serve`: a card per level, kept up to date
// by the server's event stream; a level's view with its replay, what
// changed, and Accept and Reject. Everything it shows comes from the JSON
// API (docs/watch.md); the token is the one in the page's own address.
(function () {
  'use strict';
  var token = new URLSearchParams(location.search).get('token') || '';
  var cardsBox = document.getElementById('cards');
  var view = document.getElementById('view');
  var replay = document.getElementById('replay');
  var result = document.getElementById('result');
  var levels = {};
  var order = [];
  var open = null;
  var shownChecks = -1;
  var loaded = false;

  function q(text) { return encodeURIComponent(text); }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = text; }
    return node;
  }

  function api(path, options) {
    options = options || {};
    options.headers = Object.assign({ 'Authorization': 'Bearer ' + token }, options.headers || {});
    return fetch(path, options).then(function (response) {
      return response.json().then(function (body) {
        return { ok: response.ok, status: response.status, body: body };
      });
    });
  }

  function numbers(level) {
    var parts = [];
    if (level.par !== null) {
      var par = 'par ' + level.par;
      if (level.declared_par !== null && level.declared_par !== level.par) {
        par += ' (declared ' + level.declared_par + ')';
      }
      parts.push(par);
    } else if (level.declared_par !== null) {
      parts.push('declared par ' + level.declared_par);
    }
    if (level.states !== null) { parts.push(level.states + ' states'); }
    if (level.ms !== null) { parts.push(level.ms.toFixed(2) + ' ms'); }
    return parts.join(' · ');
  }

  function flags(level, into) {
    if (level.new) { into.appendChild(el('span', 'flag', 'new level')); }
    if (level.pending) { into.appendChild(el('span', 'flag', 'pending')); }
    if (level.rebuild) { into.appendChild(el('span', 'flag', 'rebuild needed')); }
  }

  function card(level) {
    var button = el('button', 'card ' + level.status);
    button.type = 'button';
    button.dataset.level = level.name;
    button.dataset.status = level.status;
    button.dataset.checked = String(level.checked);
    var picture = el('div', 'picture');
    if (level.checked > 0) {
      var img = document.createElement('img');
      img.alt = '';
      img.src = '/api/picture?level=' + q(level.name) + '&token=' + q(token) + '&v=' + level.checked;
      img.onerror = function () { img.remove(); };
      picture.appendChild(img);
    }
    button.appendChild(picture);
    button.appendChild(el('div', 'name', level.name));
    var line = el('div');
    line.appendChild(el('span', 'status ' + level.status, level.status));
    flags(level, line);
    button.appendChild(line);
    button.appendChild(el('div', 'numbers', numbers(level)));
    button.addEventListener('click', function () { show(level.name); });
    return button;
  }

  function tally() {
    var counts = {};
    order.forEach(function (name) {
      var status = levels[name].status;
      counts[status] = (counts[status] || 0) + 1;
    });
    var box = document.getElementById('tally');
    box.textContent = '';
    ['passed', 'stale', 'failed', 'limit', 'running'].forEach(function (status) {
      if (counts[status]) { box.appendChild(el('span', '', counts[status] + ' ' + status)); }
    });
  }

  function render() {
    cardsBox.textContent = '';
    order.forEach(function (name) { cardsBox.appendChild(card(levels[name])); });
    tally();
  }

  function load() {
    return api('/api/levels').then(function (answer) {
      if (!answer.ok) { document.getElementById('run').textContent = answer.body.error; return; }
      levels = {};
      order = answer.body.map(function (level) { levels[level.name] = level; return level.name; });
      loaded = true;
      render();
    });
  }

  function update(level) {
    if (!loaded) { return; }
    if (!levels[level.name]) { load(); return; }
    levels[level.name] = level;
    var old = cardsBox.querySelector('[data-level="' + CSS.escape(level.name) + '"]');
    if (old) { old.replaceWith(card(level)); }
    tally();
    if (open === level.name) { refresh(); }
  }

  function diffBlock(text) {
    var pre = el('pre', 'diff');
    text.split('\n').forEach(function (line) {
      var kind = /\|\+/.test(line) ? 'add' : (/\|-/.test(line) ? 'remove' : '');
      pre.appendChild(el('span', kind, line + '\n'));
    });
    return pre;
  }

  function renderChange(detail) {
    var box = document.getElementById('view-change');
    box.textContent = '';
    var change = detail.change;
    if (change) {
      box.appendChild(el('h3', '', 'what changed'));
      var list = el('ul');
      change.why.forEach(function (why) { list.appendChild(el('li', '', why)); });
      box.appendChild(list);
      box.appendChild(el('p', '', 'before: ' + (change.before || 'none') + ' · after: ' + (change.after || 'none')));
    }
    if (detail.parting) {
      var part = detail.parting;
      var line = el('p', 'parting', 'they agree for ' + part.agree + ' move' + (part.agree === 1 ? '' : 's') +
        ', then part: before ' + (part.before === null ? 'ends' : '`' + part.before + '`') +
        ', after ' + (part.after === null ? 'ends' : '`' + part.after + '`') + ' ');
      var go = el('button', '', 'show where they part');
      go.type = 'button';
      go.id = 'parting';
      go.addEventListener('click', function () { replay.src = replaySource(detail) + '#at=' + part.agree; });
      line.appendChild(go);
      box.appendChild(line);
    }
    if (change) {
      box.appendChild(el('h3', '', 'expectation diff'));
      box.appendChild(diffBlock(change.diff));
    }
  }

  function renderMechanics(detail) {
    var box = document.getElementById('view-mechanics');
    box.textContent = '';
    if (!detail.mechanics || detail.mechanics.length === 0) { return; }
    box.appendChild(el('h3', '', 'mechanics (ablation)'));
    var table = el('table');
    var head = el('tr');
    ['mechanic', 'class now', 'declared'].forEach(function (title) { head.appendChild(el('th', '', title)); });
    table.appendChild(head);
    detail.mechanics.forEach(function (mechanic) {
      var row = el('tr');
      var changed = mechanic.class !== mechanic.declared;
      row.appendChild(el('td', '', mechanic.name));
      row.appendChild(el('td', changed ? 'changed' : '', mechanic.class || '-'));
      row.appendChild(el('td', '', mechanic.declared || '-'));
      table.appendChild(row);
    });
    box.appendChild(table);
  }

  function renderChecks(detail) {
    var box = document.getElementById('view-checks');
    box.textContent = '';
    if (!detail.verdicts) { return; }
    box.appendChild(el('h3', '', 'checks'));
    detail.verdicts.forEach(function (verdict) {
      var item = el('details');
      var label = verdict.verdict === 'ok' ? 'passed' : verdict.verdict;
      var title = el('summary');
      title.appendChild(el('span', 'status ' + label, verdict.verdict));
      title.appendChild(document.createTextNode(' ' + verdict.check));
      item.appendChild(title);
      item.appendChild(el('pre', '', verdict.message || '(nothing to say)'));
      item.open = verdict.verdict !== 'ok';
      box.appendChild(item);
    });
  }

  function replaySource(detail) {
    return '/api/replay?level=' + q(detail.name) + '&token=' + q(token);
  }

  function renderView(detail) {
    view.dataset.level = detail.name;
    view.dataset.status = detail.status;
    document.getElementById('view-name').textContent = detail.name;
    var summary = document.getElementById('view-summary');
    summary.textContent = '';
    summary.appendChild(el('span', 'status ' + detail.status, detail.status));
    flags(detail, summary);
    summary.appendChild(document.createTextNode(' ' + numbers(detail) + ' · ' + detail.file + ' · ' + detail.expectation));
    var settle = !!(detail.pending && detail.change);
    document.getElementById('accept').disabled = !settle;
    document.getElementById('reject').disabled = !settle;
    renderChange(detail);
    renderMechanics(detail);
    renderChecks(detail);
    if (shownChecks !== detail.checked) {
      shownChecks = detail.checked;
      replay.src = replaySource(detail) + (detail.parting ? '#at=' + detail.parting.agree : '');
    }
  }

  // Answers can come back out of order (a refresh after Accept, another
  // after the check it started): only the last one asked is shown, which
  // was asked after every change the page has heard of.
  var asked = 0;
  function refresh() {
    var name = open;
    var ticket = ++asked;
    return api('/api/level?level=' + q(name)).then(function (answer) {
      if (open !== name || ticket !== asked) { return; }
      if (!answer.ok) { result.textContent = answer.body.error; result.className = 'result fail'; return; }
      renderView(answer.body);
    });
  }

  function show(name) {
    open = name;
    shownChecks = -1;
    result.textContent = '';
    cardsBox.hidden = true;
    view.hidden = false;
    refresh();
  }

  function back() {
    open = null;
    view.hidden = true;
    cardsBox.hidden = false;
    replay.src = 'about:blank';
  }

  function settle(action) {
    var name = open;
    document.getElementById('accept').disabled = true;
    document.getElementById('reject').disabled = true;
    api('/api/' + action, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ level: name })
    }).then(function (answer) {
      if (answer.ok) {
        var done = answer.body;
        result.className = 'result ok';
        result.textContent = done.action === 'accepted'
          ? 'accepted: ' + done.expectation + ': ' + done.changes.join('; ')
          : 'rejected: ' + done.expectation + ' left as it is';
      } else {
        result.className = 'result fail';
        result.textContent = answer.body.error;
      }
      refresh();
    });
  }

  document.getElementById('back').addEventListener('click', back);
  document.getElementById('accept').addEventListener('click', function () { settle('accept'); });
  document.getElementById('reject').addEventListener('click', function () { settle('reject'); });
  document.addEventListener('keydown', function (event) {
    if (event.key === 'Escape' && open !== null) { back(); }
  });

  var run = document.getElementById('run');
  var events = new EventSource('/api/events?token=' + q(token));
  events.addEventListener('open', function () {
    run.textContent = 'watching';
    load();
  });
  events.addEventListener('error', function () {
    run.textContent = 'disconnected: is puzzle-qa watch still running?';
  });
  events.addEventListener('level', function (event) { update(JSON.parse(event.data)); });
  events.addEventListener('removed', function (event) {
    var name = JSON.parse(event.data).name;
    delete levels[name];
    order = order.filter(function (known) { return known !== name; });
    if (loaded) { render(); }
    if (open === name) { back(); }
  });
  events.addEventListener('notice', function (event) {
    var notices = document.getElementById('notices');
    notices.appendChild(el('li', '', JSON.parse(event.data).text));
  });
  events.addEventListener('run', function (event) {
    var running = JSON.parse(event.data).running;
    run.textContent = running > 0 ? 'checking ' + running + ' level' + (running === 1 ? '' : 's') + '…' : 'watching';
  });
}());
