import { useEffect, useMemo, useState } from "react";
import type { Api } from "./api/client";
import type { Attempt, Disagreement } from "./api/types";
import { AttemptsTable, type AttemptRow } from "./components/AttemptsTable";
import { DisagreementBanner } from "./components/DisagreementBanner";
import { Header } from "./components/Header";
import { HistoryList } from "./components/HistoryList";
import { LivePanel } from "./components/LivePanel";
import { ReplayPanel } from "./components/ReplayPanel";
import { SettingsPanel } from "./components/SettingsPanel";
import { TraceViewer } from "./components/TraceViewer";
import { currentSlug } from "./state/live";
import { useFileDrop } from "./state/useFileDrop";
import { isImported, useWorkbench } from "./state/useWorkbench";
import { columnsOf } from "./verdicts";

/** The workbench window: header, attempts table, live run, trace, replay, history, settings. */
export function App({ api }: { api: Api }) {
  const w = useWorkbench(api);
  const [selected, setSelected] = useState<string | null>(null);
  const [stepIndex, setStepIndex] = useState(0);
  const [frameIndex, setFrameIndex] = useState(0);
  // While the selected attempt runs, the trace shows its newest step until the user steps.
  const [followLive, setFollowLive] = useState(true);
  const [settingsOpen, setSettingsOpen] = useState(false);

  const { run, live, replays, task } = w;
  const dragging = useFileDrop(w.openTaskFile);
  const running = live?.status === "running";
  const nowRunning = live ? currentSlug(live) : null;

  // The attempts shown: the opened or finished run, else what the live run has finished so
  // far. An imported run was stored with its recomputed verdicts, never the file's.
  const attempts = useMemo<Attempt[]>(
    () => (run && (!live || live.runId === run.id) ? (run.attempts ?? []) : Object.values(live?.finished ?? {})),
    [run, live],
  );

  // The task's attempts, with the shown run's results; a run of another task shows its own.
  const ofTask = !run || !task || run.task === task.task.name;
  const rows = useMemo<AttemptRow[]>(() => {
    const bySlug = new Map(attempts.map((a) => [a.attempt, a]));
    const specs = ofTask ? (task?.attempts ?? []).map((s) => ({ slug: s.slug, title: s.title, attempt: bySlug.get(s.slug) })) : [];
    const extra = attempts.filter((a) => !specs.some((s) => s.slug === a.attempt)).map((a) => ({ slug: a.attempt, title: a.title, attempt: a }));
    return [...specs, ...extra];
  }, [attempts, task, ofTask]);

  // The columns: named by the shown attempts' verdicts, else by the task's.
  const names = attempts[0]?.verdicts ?? task?.columns ?? null;
  const columns = useMemo(() => (names ? columnsOf(names) : []), [names]);

  // What the import of the shown run found wrong in its file; other runs have no file.
  const disagreements: Disagreement[] = w.imported && run?.id === w.imported.runId ? w.imported.disagreements : [];

  const titleOf = (slug: string) => rows.find((r) => r.slug === slug)?.title ?? slug;

  // An opened imported run shows its first attempt, so its replay is in view at once.
  useEffect(() => {
    if (run && isImported(run)) setSelected(run.attempts?.[0]?.attempt ?? null);
  }, [run]);

  // Follow the live run: the attempt that starts becomes the selected one.
  useEffect(() => {
    if (nowRunning) setSelected(nowRunning);
  }, [nowRunning]);

  useEffect(() => {
    setStepIndex(0);
    setFrameIndex(0);
    setFollowLive(true);
  }, [selected, w.shownId]);

  const sel = rows.find((r) => r.slug === selected) ?? null;
  const selSteps = sel ? (sel.attempt?.steps ?? live?.steps[sel.slug] ?? []) : [];
  const replay = sel ? replays[sel.slug] : undefined;
  const importedRun = run !== null && isImported(run);
  const following = followLive && sel !== null && sel.slug === nowRunning;

  return (
    <div className="app">
      <Header
        tasks={w.tasks}
        task={task}
        onChooseTask={w.chooseTask}
        onOpenTask={w.openTaskFile}
        onForgetTask={w.forgetTask}
        session={w.session}
        progress={
          running
            ? {
                at: live.position?.index ?? Math.max(live.started.length, 1),
                of: live.position?.total ?? live.planned.length,
                title: nowRunning ? titleOf(nowRunning) : "starting…",
              }
            : null
        }
        running={running}
        canExport={!!w.shownId && !running}
        settingsOpen={settingsOpen}
        fileInput={api.kind === "http"}
        onRunAll={() => w.runAttempts([])}
        onStop={w.stop}
        onReset={() => {
          w.reset();
          setSelected(null);
        }}
        onExport={w.exportShown}
        onImport={w.importRun}
        onToggleSettings={() => setSettingsOpen((o) => !o)}
      />
      {w.message && (
        <p className={`banner ${w.message.kind}`} role={w.message.kind === "error" ? "alert" : "status"}>
          {w.message.text}
        </p>
      )}
      {settingsOpen && w.settings && <SettingsPanel settings={w.settings} onSave={w.saveSettings} />}
      {names && <DisagreementBanner items={disagreements} titleOf={titleOf} names={names} />}
      {dragging && (
        <div className="drop-overlay" aria-hidden="true">
          Drop a task file (YAML or JSON) to open it
        </div>
      )}
      <div className="layout">
        <main>
          <section className="panel">
            <div className="panel-head">
              <h2>
                Attempts
                {importedRun && <span className="tag">imported</span>}
              </h2>
              <span className="muted">Click or ↑/↓ selects an attempt and shows its trace; ▶ runs it. Red with “wrong”: the check disagrees with the ground truth.</span>
            </div>
            <AttemptsTable
              rows={rows}
              columns={columns}
              selected={selected}
              running={nowRunning}
              busy={running}
              disagreements={disagreements}
              onRun={(slug) => w.runAttempts([slug])}
              onSelect={setSelected}
            />
          </section>
          {live && (
            <LivePanel
              live={live}
              slug={nowRunning ?? (selected && live.started.includes(selected) ? selected : (live.started[live.started.length - 1] ?? null))}
              screenshots={w.settings?.screenshots ?? false}
              titleOf={titleOf}
            />
          )}
          {replay && sel && <ReplayPanel title={sel.title} replay={replay} columns={columns} index={frameIndex} onIndex={setFrameIndex} />}
          {sel && (sel.attempt || selSteps.length > 0) && (
            <TraceViewer
              title={sel.title}
              plan={sel.attempt?.plan ?? task?.plan ?? []}
              columns={columns}
              steps={selSteps}
              attempt={sel.attempt}
              runId={w.shownId ?? ""}
              onSaveMedia={w.saveShownMedia}
              onRun={running ? undefined : () => w.runAttempts([sel.slug])}
              current={following ? selSteps.length - 1 : stepIndex}
              onStep={(i) => {
                setFollowLive(false);
                setStepIndex(i);
              }}
            />
          )}
        </main>
        <HistoryList runs={w.history} current={run?.id ?? null} onOpen={w.openRun} />
      </div>
    </div>
  );
}
