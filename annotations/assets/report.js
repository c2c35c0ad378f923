// The page's behaviour (kbaudit report --html): grid filters, the side panel, CSV export of the
// runs shown. Reads only the page's own elements and data attributes; it adds no markup built
// from strings (textContent and attributes only), so text from annotations stays text.
(function () {
  'use strict';
  document.body.classList.add('js');
  var grid = document.getElementById('grid');
  var drawer = document.getElementById('drawer');
  var filter = document.getElementById('filter');
  var model = document.getElementById('model');
  var harness = document.getElementById('harness');
  var problem = document.getElementById('problem');
  var query = document.getElementById('q');
  var shown = document.getElementById('shown');
  var csvLink = document.getElementById('csv-export');
  var runs = grid ? grid.querySelectorAll('.run') : [];

  function matches(run, f) {
    var d = run.dataset;
    if (f === 'disagree') return d.a === 'disagree' || d.a === 'class';
    if (f === 'flagged') return d.kl === 'hack';
    if (f === 'human-hack') return d.hl === 'hack';
    if (f.indexOf('rule:') === 0) return d.rules.indexOf(' ' + f.slice(5) + ' ') >= 0;
    return true;
  }

  // RFC 4180 as src/report_csv.cpp writes it: every field quoted, quotes doubled, CRLF; a field
  // a spreadsheet would run as a formula gets a leading apostrophe.
  function csvField(s) {
    if (/^[=+\-@\t\r]/.test(s)) s = "'" + s;
    return '"' + s.replace(/"/g, '""') + '"';
  }
  function csvRow(fields) { return fields.map(csvField).join(',') + '\r\n'; }
  function runFields(run) {
    var d = run.dataset;
    return [d.id, d.model, d.harness, d.problem, d.effort, d.pf, d.k, d.h, d.a, d.decisive, d.ruleList];
  }
  function exportCsv(visible) {
    if (!csvLink) return;
    var text = csvRow(csvLink.dataset.columns.split(','));
    visible.forEach(function (run) { text += csvRow(runFields(run)); });
    csvLink.href = 'data:text/csv;charset=utf-8,' + encodeURIComponent(text);
    csvLink.dataset.rows = String(visible.length);
  }

  function apply() {
    if (!grid) return;
    var f = filter ? filter.value : 'all';
    var mv = model ? model.value : '';
    var hv = harness ? harness.value : '';
    var pv = problem ? problem.value : '';
    var q = query ? query.value.trim().toLowerCase() : '';
    var visible = [];
    grid.querySelectorAll('tbody tr').forEach(function (tr) {
      var rowHit = !q || tr.dataset.model.indexOf(q) >= 0;
      var any = false;
      tr.querySelectorAll('.run').forEach(function (run) {
        var d = run.dataset;
        var ok = matches(run, f) && (!mv || d.model === mv) && (!hv || d.harness === hv) && (!pv || d.problem === pv) &&
                 (rowHit || d.id.toLowerCase().indexOf(q) >= 0);
        run.classList.toggle('dim', !ok);
        if (ok) { visible.push(run); any = true; }
      });
      tr.hidden = !!q && !any;
      tr.querySelectorAll('td.cell[data-cell]').forEach(function (td) {
        td.classList.toggle('dimcell', !td.querySelector('.run:not(.dim)'));
      });
    });
    shown.textContent = visible.length + ' of ' + runs.length + ' runs shown';
    exportCsv(visible);
  }

  function select() {
    var id = location.hash.slice(1);
    var section = id ? document.getElementById(id) : null;
    var isCell = !!section && section.classList.contains('cell-detail');
    document.querySelectorAll('.cell-detail.open').forEach(function (s) { s.classList.remove('open'); });
    document.querySelectorAll('td.cell.selected').forEach(function (td) { td.classList.remove('selected'); });
    drawer.classList.toggle('open', isCell);
    if (!isCell) return;
    section.classList.add('open');
    var td = grid.querySelector('td.cell[data-cell="' + id.slice(1) + '"]');
    if (td) td.classList.add('selected');
    drawer.scrollTop = 0;
  }
  function close() {
    try { history.pushState(null, '', location.pathname + location.search); } catch (e) { location.hash = ''; }
    select();
  }

  // A select keeps a value only when one of its options has it.
  function choose(select, value) {
    if (!select) return false;
    for (var i = 0; i < select.options.length; i++)
      if (select.options[i].value === value) { select.value = value; return true; }
    return false;
  }

  // ?filter=disagree|flagged|human-hack|rule:ID, ?model=M, ?harness=H, ?problem=P and ?q=TEXT
  // preset the controls (shareable links).
  var params = new URLSearchParams(location.search);
  if (params.get('filter')) choose(filter, params.get('filter'));
  if (params.get('model')) choose(model, params.get('model'));
  if (params.get('harness')) choose(harness, params.get('harness'));
  if (params.get('problem')) choose(problem, params.get('problem'));
  if (query && params.get('q')) query.value = params.get('q');
  [filter, model, harness, problem].forEach(function (s) { if (s) s.addEventListener('change', apply); });
  if (query) query.addEventListener('input', apply);
  document.querySelectorAll('a.rule-link').forEach(function (a) {
    a.addEventListener('click', function () { if (choose(filter, 'rule:' + a.dataset.rule)) apply(); });
  });
  // A bar or a count row of a hack-rate chart filters the grid to its model, harness or problem.
  document.querySelectorAll('figure.chart').forEach(function (fig) {
    var group = fig.dataset.group;
    fig.querySelectorAll('[data-key]').forEach(function (el) {
      el.addEventListener('click', function () {
        var key = el.dataset.key;
        choose(group === 'harness' ? harness : group === 'problem' ? problem : model, key);
        apply();
        document.getElementById('grid-section').scrollIntoView();
      });
    });
  });
  window.addEventListener('hashchange', select);
  document.addEventListener('keydown', function (e) { if (e.key === 'Escape') close(); });
  drawer.querySelector('.close').addEventListener('click', function (e) { e.preventDefault(); close(); });
  apply();
  select();
  document.body.dataset.rendered = 'yes';
})();
