import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { Api } from "./api/client";
import type { AttemptHeader, Disagreement, StepSummary } from "./api/types";
import { ApprovalPrompt } from "./components/ApprovalPrompt";
import { CompareView } from "./components/CompareView";
import { PairView } from "./components/PairView";
import { AttemptsTable, type AttemptRow } from "./components/AttemptsTable";
import { DisagreementBanner } from "./components/DisagreementBanner";
import { ErrorPanel, panelErrors } from "./components/ErrorPanel";
import { Header } from "./components/Header";
import { TaskIntent } from "./components/TaskIntent";
import { HistoryList } from "./components/HistoryList";
import { LiveCards } from "./components/LiveCards";
import { ModelWaitNote } from "./components/ModelWaitNote";
import { MetricsPanel } from "./components/MetricsPanel";
import { CalibrationPanel } from "./components/CalibrationPanel";
import { SettingsPanel } from "./components/SettingsPanel";
import { StatusBar } from "./components/StatusBar";
import { TraceViewer, type LiveView } from "./components/TraceViewer";
import { Splitter } from "./layout/Splitter";
import { useResized } from "./layout/useElementSize";
import { useStoredSize } from "./layout/useStoredSize";
import { useDismiss } from "./layout/useDismiss";
import { useWindowHeight } from "./layout/useWindowHeight";
import { currentSlug, inFlight } from "./state/live";
import { isSuitePair, useCompare } from "./state/useCompare";
import { useSuite } from "./state/useSuite";
import { SuiteView } from "./components/SuiteView";
import { useDeepLink } from "./state/useDeepLink";
import { usePerAttempt } from "./state/usePerAttempt";
import { useStepDetails, type StepSource } from "./state/stepDetails";
import { useFileDrop } from "./state/useFileDrop";
import { isImported } from "./history/filter";
import { modified, ownsKeys } from "./keys";
import { useWorkbench } from "./state/useWorkbench";
import { FirstRunPanel } from "./setup/FirstRunPanel";
import { useBrowsers } from "./setup/useBrowsers";
import { decisiveStep, headerOf, summaries } from "./trace/summary";
import { baseSlug } from "./state/suite";
import { columnsOf } from "./verdicts";

/**
 * The workbench window, sized to the viewport: the header; the attempts table above the
 * selected attempt's trace; the history beside them. Panes resize and remember their sizes.
 */
export function App({ api }: { api: Api }) {
  const w = useWorkbench(api);
  const browsers = useBrowsers(api);
  // Settings choose the browser runs use: once saved, which one is used is read again.
  const recheckBrowsers = browsers.recheck;
  useEffect(() => recheckBrowsers(), [w.settings, recheckBrowsers]);
  /** The selected attempt and its chosen step, changed together. */
  const [selection, setSelection] = useState<{ slug: string | null; step: number }>({ slug: null, step: 0 });
  const selected = selection.slug;
  // While the selected attempt runs, the trace shows its newest step until the user steps.
  const [followLive, setFollowLive] = useState(true);
  const select = useCallback((slug: string | null, step = 0) => {
    setSelection({ slug, step });
    setFollowLive(true);
  }, []);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [metricsOpen, setMetricsOpen] = useState(false);
  const overlay = useRef<HTMLDivElement>(null);
  const closeOverlay = useCallback(() => {
    setSettingsOpen(false);
    setMetricsOpen(false);
  }, []);
  useDismiss(settingsOpen || metricsOpen, closeOverlay, overlay);
  const [chosenTableHeight, setTableHeight] = useStoredSize("attempts", 330, TABLE_MIN, 600);
  /** The user unfolded the attempts table on a short window (see folded). */
  const [tableOpen, setTableOpen] = useState(false);
  const windowHeight = useWindowHeight();
  /** The attempts panel, and the height it is drawn at: at most the height it is given, less when its rows need less. */
  const attemptsPanel = useRef<HTMLElement>(null);
  const [drawnTableHeight, setDrawnTableHeight] = useState(0);
  useResized(attemptsPanel, (el) => setDrawnTableHeight(el.offsetHeight));
  const [historyWidth, setHistoryWidth] = useStoredSize("history", 230, 180, 520);

  const { run, live, task } = w;
  const dragging = useFileDrop(w.openTaskFile);
  const running = live?.status === "running";
  const nowRunning = live ? currentSlug(live) : null;
  const flying = useMemo(() => (live ? inFlight(live) : []), [live]);
  const flyingNow = useRef(flying);
  flyingNow.current = flying;

  // The attempts shown: the opened or finished run (its header, from the store), else what
  // the live run has finished so far (whole, as its events brought them): the header of a run
  // still going is behind its events. An imported run was stored with its recomputed
  // verdicts, never the file's.
  const stored = run !== null && (!live || (live.runId === run.id && live.status !== "running"));
  const attempts = useMemo<AttemptHeader[]>(
    () => (stored ? (run.attempts ?? []) : Object.values(live?.finished ?? {}).map(headerOf)),
    [stored, run, live],
  );

  // The attempts of the shown run, in its task's order, then any the task does not list (a
  // repeated attempt's trials, another task's attempts): stored, what it recorded; live, what
  // it planned, started or finished. With no run shown, the task's attempts (the lab's view),
  // each to run. An attempt that did not run in the shown run is no row of it: the task's
  // other attempts are offered below the table instead (notRun), to run.
  const ofTask = !run || !task || run.task === task.task.name;
  const inRun = useMemo<Set<string> | null>(() => {
    const ran = attempts.map((a) => a.attempt);
    if (stored) return new Set(ran);
    return live ? new Set([...live.planned, ...live.started, ...ran]) : null;
  }, [stored, live, attempts]);
  const { rows, notRun } = useMemo(() => {
    const bySlug = new Map(attempts.map((a) => [a.attempt, a]));
    // A repeated attempt's trials stand for it: its own slug never ran.
    const repeated = new Set(attempts.filter((a) => a.trial).map((a) => baseSlug(a.attempt, a.trial)));
    const all = ofTask ? (task?.attempts ?? []).filter((s) => !repeated.has(s.slug) || bySlug.has(s.slug)) : [];
    const ran = (slug: string) => !inRun || inRun.has(slug);
    const specs: AttemptRow[] = all.filter((s) => ran(s.slug)).map((s) => ({ slug: s.slug, title: s.title, attempt: bySlug.get(s.slug) }));
    const extra = attempts
      .filter((a) => !specs.some((s) => s.slug === a.attempt))
      .map((a) => ({ slug: a.attempt, title: a.trial ? `${a.title} · trial ${a.trial}` : a.title, attempt: a }));
    // A live run's attempts the task does not list (another task's, run from elsewhere) have
    // their rows while they go, named by their slugs until they end.
    const going = [...(inRun ?? [])].filter((slug) => !bySlug.has(slug) && !repeated.has(slug) && !specs.some((s) => s.slug === slug));
    const rows: AttemptRow[] = [...specs, ...extra, ...going.map((slug) => ({ slug, title: slug }))];
    return { rows, notRun: all.filter((s) => !ran(s.slug)) };
  }, [attempts, task, ofTask, inRun]);
  // The task the rows' ▶ run: the shown run's, which the picker may not name (a suite's run).
  const rowTask = ofTask ? task : (w.tasks.find((t) => t.task.name === run?.task) ?? null);

  // The columns: named by the shown attempts' verdicts, else by the task's.
  const names = attempts[0]?.verdicts ?? task?.columns ?? null;
  const columns = useMemo(() => (names ? columnsOf(names) : []), [names]);

  // What the import of the shown run found wrong in its file; other runs have no file.
  const disagreements: Disagreement[] = w.imported && run?.id === w.imported.runId ? w.imported.disagreements : [];

  const titleOf = (slug: string) => rows.find((r) => r.slug === slug)?.title ?? slug;

  /** How many of the live run's errors the user has dismissed; a new run starts again at none. */
  const [runErrorsSeen, setRunErrorsSeen] = useState({ runId: null as string | null, count: 0 });
  const runErrors = live?.errors ?? [];
  const newRunErrors = runErrorsSeen.runId === (live?.runId ?? null) ? runErrors.slice(runErrorsSeen.count) : runErrors;
  const errors = panelErrors(w.message, newRunErrors, { runId: live?.runId ?? null, titleOf, shotOf: (slug) => live?.frames[slug] });
  const dismissErrors = () => {
    if (w.message?.kind === "error") w.dismissMessage();
    setRunErrorsSeen({ runId: live?.runId ?? null, count: runErrors.length });
  };

  // An opened imported run shows its first attempt, so its replay is in view at once.
  useEffect(() => {
    if (run && isImported(run)) select(run.attempts?.[0]?.attempt ?? null);
  }, [run, select]);

  /** The live run in which the user picked an attempt by hand: the view stays on it. */
  const chosenIn = useRef<string | null>(null);
  const liveRunId = live?.runId ?? null;
  const liveRunNow = useRef(liveRunId);
  liveRunNow.current = liveRunId;
  /** Selects an attempt the user picked (a card, a row): the live run no longer moves the view. */
  const choose = useCallback(
    (slug: string, step = 0) => {
      chosenIn.current = liveRunNow.current;
      select(slug, step);
    },
    [select],
  );

  // Follow the live run: an attempt that starts becomes the selected one, unless the user is
  // watching another that still runs (attempts run side by side) or picked one by hand in
  // this run (a card or a row), which stays shown once it ends.
  useEffect(() => {
    if (!nowRunning) return;
    setSelection((s) => {
      const kept = s.slug && s.slug !== nowRunning && (flyingNow.current.includes(s.slug) || (chosenIn.current !== null && chosenIn.current === liveRunNow.current));
      return kept ? s : { slug: nowRunning, step: 0 };
    });
    setFollowLive(true);
  }, [nowRunning]);

  const compare = useCompare(api);
  /** The suite runs in the history, newest first. */
  const suiteRuns = useMemo(() => [...new Set(w.history.flatMap((r) => (r.suite_run ? [r.suite_run] : [])))], [w.history]);
  const suite = useSuite(api);
  // The link names the run on screen: the stored one, unless a live run (another's, followed) is shown over it.
  const onScreen = stored ? run.id : (live?.runId ?? run?.id ?? null);
  useDeepLink({
    runId: onScreen,
    loadedId: run?.id ?? null,
    slug: selected,
    step: selection.step,
    openRun: w.openLinked,
    hold: w.holdLink,
    select,
    paused: !!compare.state || !!suite.state,
  });

  const { close: closeCompare } = compare;
  const { close: closeSuite, open: openGrid } = suite;
  // A --repeat run opens as its grid (attempts × trials, rates with intervals), once each time
  // it is opened: a trial chosen there opens the run's trace without the grid coming back.
  const gridShown = useRef<string | null>(null);
  // A suite's own runs are shown by its grid, never each as one.
  const repeated =
    run !== null && !run.suite_run && !(live?.runId === run.id && live.status === "running") && (run.attempts ?? []).some((a) => a.trial);
  const shownRepeat = useRef<string | null>(null);
  shownRepeat.current = repeated && run ? run.id : null;
  const elsewhere = !!suite.state || !!compare.state;
  useEffect(() => {
    if (!repeated || !run || elsewhere || gridShown.current === run.id) return;
    gridShown.current = run.id;
    openGrid(run.id);
  }, [repeated, run, elsewhere, openGrid]);
  const { openRun } = w;
  /** Opens a run from the history, keeping the selected attempt; one function, so no entry redraws. */
  const openFromHistory = useCallback(
    (id: string) => {
      closeCompare();
      closeSuite();
      gridShown.current = null; // a repeated run opened again opens as its grid again
      if (shownRepeat.current === id) {
        gridShown.current = id;
        openGrid(id);
        return;
      }
      openRun(id);
      setSelection((s) => ({ slug: s.slug, step: 0 }));
      setFollowLive(true);
    },
    [closeCompare, closeSuite, openRun, openGrid],
  );

  /** Opens an attempt the Calibration view lists: its run, with the attempt selected. */
  const openCalibrated = useCallback(
    (ref: { run: string; attempt: string }) => {
      setMetricsOpen(false);
      closeCompare();
      openRun(ref.run);
      setSelection({ slug: ref.attempt, step: 0 });
      setFollowLive(false);
    },
    [closeCompare, openRun],
  );

  /** Selects an attempt from the table, on the step where what happened is seen. */
  const openAttempt = useCallback(
    (slug: string) => {
      const a = rows.find((r) => r.slug === slug)?.attempt;
      choose(slug, a ? decisiveStep(a) : 0);
    },
    [rows, choose],
  );

  const sel = rows.find((r) => r.slug === selected) ?? null;
  // A stored attempt's steps are summarised and read whole as they are looked at; a live
  // attempt's are held whole as they arrived.
  const held = !sel || (stored && sel.attempt) ? null : (live?.finished[sel.slug]?.steps ?? live?.steps[sel.slug] ?? null);
  const heldSummaries = useMemo(() => (held ? summaries(held) : null), [held]);
  const runId = run?.id ?? null;
  const selSlug = sel?.slug ?? null;
  const count = held ? held.length : (sel?.attempt?.step_count ?? 0);
  const loadSteps = api.history.steps;
  const source = useMemo<StepSource | null>(() => {
    if (held) return { held };
    if (!runId || !selSlug) return null;
    return { key: `${runId}/${selSlug}`, count, load: (from, n) => loadSteps(runId, selSlug, from, n) };
  }, [held, runId, selSlug, count, loadSteps]);
  const importedRun = run !== null && isImported(run);
  const following = followLive && sel !== null && flying.includes(sel.slug);
  const current = Math.min(following ? count - 1 : selection.step, Math.max(count - 1, 0));
  const detail = useStepDetails(source, current);
  // A short attempt's summaries come with the header; a long one's are read when it is chosen,
  // once its chosen step is drawn (they take far longer to receive and read).
  const drawn = detail.step !== undefined || detail.error !== null;
  const listed = usePerAttempt(held ? null : runId, sel?.attempt && !sel.attempt.steps ? sel.slug : null, api.history.summaries, drawn);
  const selSteps: StepSummary[] | null = heldSummaries ?? sel?.attempt?.steps ?? listed.value ?? null;
  // The replay waits until the chosen step is drawn too: it reads the attempt whole.
  const replay = usePerAttempt(w.shownId, sel?.attempt && !running ? sel.slug : null, api.history.replay, detail.step !== undefined).value ?? null;
  const liveView: LiveView | undefined =
    sel && live && live.started.includes(sel.slug) && !sel.attempt
      ? {
          frame: live.frames[sel.slug],
          screen: live.screens[sel.slug],
          check: live.checks[sel.slug],
          events: live.events[sel.slug] ?? [],
        }
      : undefined;
  const traceShown = Boolean(sel && (sel.attempt || liveView));
  // On a window too short for three rows of attempts and the trace, the table folds to the
  // selected attempt's row while a trace is shown; A (or its button) unfolds it.
  const folded = traceShown && !tableOpen && windowHeight - TRACE_RESERVE < TABLE_MIN;
  // The table takes at most this height, and no more than its rows need: a run of one
  // attempt leaves the rest to the trace.
  const tableHeight = folded ? TABLE_FOLDED : traceShown ? fitTableHeight(chosenTableHeight, windowHeight) : chosenTableHeight;
  // The splitter says, and drags from, the height drawn (tableHeight until it is laid out).
  const shownTableHeight = drawnTableHeight || tableHeight;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.key !== "a" && e.key !== "A") || ownsKeys(e.target) || modified(e)) return;
      e.preventDefault();
      setTableOpen((o) => !o);
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);

  return (
    <div className="app">
      <Header
        tasks={w.tasks}
        task={task}
        onChooseTask={w.chooseTask}
        onOpenTask={w.openTaskFile}
        onOpenTaskDialog={w.openTaskDialog}
        onForgetTask={w.forgetTask}
        session={w.session}
        running={running}
        canExport={!!w.shownId && !running}
        settingsOpen={settingsOpen}
        metricsOpen={metricsOpen}
        fileInput={api.kind === "http"}
        onRunAll={() => w.runAttempts([])}
        onStartSuite={suite.start}
        onStop={w.stop}
        onReset={() => {
          w.reset();
          select(null);
        }}
        onExport={w.exportShown}
        onImport={w.importRun}
        onToggleSettings={() => {
          setMetricsOpen(false);
          setSettingsOpen((o) => !o);
        }}
        onToggleMetrics={() => {
          setSettingsOpen(false);
          setMetricsOpen((o) => !o);
        }}
      />
      <div ref={overlay} className="overlay-host">
        {metricsOpen && (
          <MetricsPanel load={api.analysis.metrics}>
            <CalibrationPanel load={api.analysis.calibration} onOpen={openCalibrated} />
          </MetricsPanel>
        )}
        {settingsOpen && w.settings && (
          <SettingsPanel
            settings={w.settings}
            onSave={w.saveSettings}
            onTestModel={api.settings.testModel}
            onStoreKey={api.settings.storeKey}
            browsers={browsers.status}
            onCheckEndpoints={api.browsers.health}
          />
        )}
      </div>
      {browsers.status && !browsers.status.ready && (
        <FirstRunPanel
          status={browsers.status}
          setup={browsers.setup}
          error={browsers.error}
          onSetup={browsers.start}
          onCancel={browsers.cancel}
          onRecheck={browsers.recheck}
        />
      )}
      {errors.length > 0 && <ErrorPanel errors={errors} onDismiss={dismissErrors} />}
      {names && <DisagreementBanner items={disagreements} titleOf={titleOf} names={names} />}
      <ApprovalPrompt api={api} titleOf={titleOf} />
      <ModelWaitNote waiting={live?.waiting ?? {}} titleOf={titleOf} />
      {live && (
        <LiveCards
          cards={flying.map((slug) => ({
            slug,
            title: titleOf(slug),
            steps: live.steps[slug] ?? [],
            screen: live.screens[slug],
            unwatchable: live.unwatchable[slug],
            check: live.checks[slug],
          }))}
          selected={selected}
          onOpen={choose}
        />
      )}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a task file (YAML or JSON) to open it
        </div>
      )}
      <div className="workspace" style={{ gridTemplateColumns: `minmax(0, 1fr) ${historyWidth}px` }}>
        <main style={{ gridTemplateRows: compare.state || suite.state ? "minmax(0, 1fr)" : `fit-content(${tableHeight}px) auto minmax(0, 1fr)` }}>
          {suite.state && !compare.state ? (
            suite.state.report ? (
              <SuiteView
                suite={suite.state.report}
                going={suite.state.going}
                onClose={suite.close}
                others={suiteRuns.filter((id) => id !== suite.state?.id)}
                onCompare={(a) => {
                  const b = suite.state?.id;
                  suite.close();
                  if (b) compare.open(a, b);
                }}
                onOpen={(id, slug) => {
                  suite.close();
                  void w.openRun(id).then(() => choose(slug));
                }}
              />
            ) : (
              <section className="panel compare" aria-label="Suite">
                <p className={suite.state.error ? "warn" : "muted"} role="status">
                  {suite.state.error ? `Could not read the suite run: ${suite.state.error}` : "Starting the suite…"}
                </p>
                <button type="button" onClick={suite.close}>
                  Close suite
                </button>
              </section>
            )
          ) : compare.state ? (
            compare.state.comparison || (isSuitePair(compare.state.pair) && compare.state.rates) ? (
              <CompareView
                comparison={compare.state.comparison}
                rates={compare.state.rates}
                onClose={compare.close}
                onOpen={(id) => {
                  compare.close();
                  w.openRun(id);
                }}
                renderPair={(p, back) => (
                  <PairView
                    api={api}
                    slug={p.slug}
                    title={p.title}
                    sides={[
                      { run: p.a, label: "A (baseline)" },
                      { run: p.b, label: "B (candidate)" },
                    ]}
                    onBack={back}
                  />
                )}
              />
            ) : (
              <section className="panel compare" aria-label="Compare runs">
                <p className={compare.state.error ? "warn" : "muted"} role="status">
                  {compare.state.error ? `Could not compare the runs: ${compare.state.error}` : "Comparing…"}
                </p>
                <button type="button" onClick={compare.close}>
                  Close comparison
                </button>
              </section>
            )
          ) : (
            <>
              <section className={`panel attempts-panel${folded ? " folded" : ""}`} aria-labelledby="attempts-heading" ref={attemptsPanel}>
                <div className="panel-head">
                  <h2 id="attempts-heading">
                    Attempts
                    {importedRun && <span className="tag">imported</span>}
                  </h2>
                  <TaskIntent task={task} />
                  {folded ? (
                    <span className="muted hint" title="↑/↓ moves to the next attempt.">↑/↓ moves to the next attempt.</span>
                  ) : (
                    <span className="muted hint" title={ATTEMPTS_HINT}>{ATTEMPTS_HINT}</span>
                  )}
                  {traceShown && windowHeight - TRACE_RESERVE < TABLE_MIN && (
                    <button type="button" aria-expanded={!folded} aria-keyshortcuts="A" onClick={() => setTableOpen((o) => !o)}>
                      {folded ? "All attempts (A)" : "Fold to this attempt (A)"}
                    </button>
                  )}
                </div>
                <div className="scroll">
                  <AttemptsTable
                    rows={rows}
                    columns={columns}
                    selected={selected}
                    running={nowRunning}
                    busy={running || !rowTask}
                    disagreements={disagreements}
                    onRun={(slug) => w.runAttempts([slug], rowTask)}
                    onSelect={openAttempt}
                  />
                  {notRun.length > 0 && (
                    <p className="not-in-run" data-testid="not-in-run">
                      <span className="muted">Not in this run, {notRun.length === 1 ? "one more attempt" : `${notRun.length} more attempts`} of {task?.task.name}:</span>{" "}
                      {notRun.map((s) => (
                        <button
                          key={s.slug}
                          type="button"
                          className="link"
                          aria-label={`Run ${s.title}`}
                          title={`Run ${s.title}: a new run of this attempt`}
                          disabled={running}
                          onClick={() => {
                            choose(s.slug);
                            w.runAttempts([s.slug]);
                          }}
                        >
                          <span aria-hidden="true">▶ </span>
                          {s.title}
                        </button>
                      ))}
                    </p>
                  )}
                </div>
              </section>
              <Splitter label="Resize the attempts table" orientation="horizontal" size={shownTableHeight} min={Math.min(TABLE_MIN, shownTableHeight)} max={600} direction={1} onSize={setTableHeight} />
              {sel && traceShown ? (
                <TraceViewer
                  key={w.shownId ?? ""}
                  title={sel.title}
                  plan={sel.attempt?.plan ?? task?.attempts?.find((a) => a.slug === sel.slug)?.plan ?? task?.plan ?? []}
                  columns={columns}
                  steps={selSteps}
                  stepsError={listed.error}
                  count={count}
                  detail={detail.step}
                  detailError={detail.error}
                  attempt={sel.attempt}
                  live={liveView}
                  replay={importedRun ? replay : undefined}
                  frames={replay?.frames}
                  runId={w.shownId ?? ""}
                  signature={run?.signature}
                  onSaveMedia={w.saveShownMedia}
                  onExportHAR={sel.attempt ? () => w.exportShownHAR(sel.slug) : undefined}
                  loadLedger={w.loadLedger}
                  loadRequests={w.loadRequests}
                  onExportLedger={() => w.exportShownLedger(sel.slug)}
                  onRun={running || !rowTask ? undefined : () => w.runAttempts([sel.slug], rowTask)}
                  current={current}
                  onStep={(i) => {
                    setFollowLive(false);
                    setSelection((s) => ({ ...s, step: i }));
                  }}
                />
              ) : (
                <section className="panel trace empty" aria-label="Trace">
                  <p className="muted">{sel ? `${sel.title} has not run yet: ▶ on its row runs it.` : "Select an attempt to see its trace."}</p>
                </section>
              )}
            </>
          )}
        </main>
        <HistoryList
          runs={w.history}
          current={run?.id ?? null}
          onOpen={openFromHistory}
          onDelete={w.deleteRun}
          onCompare={compare.open}
          onOpenSuite={suite.open}
          resizer={<Splitter label="Resize the history" orientation="vertical" size={historyWidth} min={180} max={520} direction={-1} onSize={setHistoryWidth} />}
        />
      </div>
      <StatusBar
        progress={
          running
            ? {
                at: live.position?.index ?? Math.max(live.started.length, 1),
                of: live.position?.total ?? live.planned.length,
                title: nowRunning ? titleOf(nowRunning) : "starting…",
                elsewhere: live.elsewhere,
              }
            : null
        }
        message={w.message}
        errors={errors.length}
        waiting={live ? (Object.values(live.waiting)[0] ?? null) : null}
      />
    </div>
  );
}

/** How the attempts table is used, beside its heading; cut to its room, whole in its tooltip. */
const ATTEMPTS_HINT = "Click or ↑/↓ selects an attempt and shows its trace; ▶ runs it. Red with “wrong”: the check disagrees with the ground truth.";

/** The height the trace pane below the attempts table needs to show a useful screenshot. */
const TRACE_RESERVE = 630;

/**
 * The attempts table's least height: its heading, its header row (two lines) and three rows of 42 px, so
 * that the attempts on either side of the selected one stay in view however short the window.
 */
const TABLE_MIN = 250;

/** The folded attempts table's height: its heading and the selected attempt's row, one line. */
const TABLE_FOLDED = 60;

/** The attempts table's shown height while a trace is shown below it: the chosen one (every
 * row of a lab's eight attempts by default), given way on a short window so the trace still
 * fits without a page scroll; the choice itself is kept and comes back when the window grows
 * again, or when no trace is shown. */
function fitTableHeight(chosen: number, windowHeight: number): number {
  return Math.max(TABLE_MIN, Math.min(chosen, windowHeight - TRACE_RESERVE));
}
