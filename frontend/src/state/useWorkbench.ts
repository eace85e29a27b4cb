// The window's data and the actions on it: the tasks there are to run and the chosen one,
// settings, history, the shown run (its header: its steps summarised) and the live run.
// Everything goes through the Api passed in.
import { useCallback, useEffect, useRef, useState } from "react";
import type { Api } from "../api/client";
import { exportRun, saveMedia, type ExportFormat } from "../api/transfer";
import type { Disagreement, GoingRun, Progress, RunHeader, RunSummary, SessionInfo, Settings, TaskInfo } from "../api/types";
import { envQuestion } from "./envQuestion";
import { applyProgress, foldAll, missedFinish, resumeLive, startLive, type LiveState } from "./live";
import { toApiError, type ErrorKind } from "../api/client";
import { parseRoute } from "./route";

/** How often the history is re-read while the window is visible, so runs that another
 * process (the command line, another window) records appear without a reload. */
export const HISTORY_POLL_MS = 3000;

/** The new history, or prev itself when nothing changed (so nothing re-renders). */
function changed(prev: RunSummary[], next: RunSummary[] | null): RunSummary[] {
  const n = next ?? [];
  return JSON.stringify(prev) === JSON.stringify(n) ? prev : n;
}

/** A line for the status bar. */
export interface Message {
  kind: "info" | "error";
  text: string;
  /** An error's kind and the place in the input it names, as the backend typed it. */
  error?: { kind: ErrorKind; path: string };
}

/** The workbench state and its actions; see the fields for what each holds. */
export function useWorkbench(api: Api) {
  const [session, setSession] = useState<SessionInfo | null>(null);
  /** The labs' tasks, then the recently opened task files. */
  const [tasks, setTasks] = useState<TaskInfo[]>([]);
  /** The chosen task's ref; null picks the first. */
  const [taskRef, setTaskRef] = useState<string | null>(null);
  const task = tasks.find((t) => t.ref === taskRef) ?? tasks[0] ?? null;
  const [settings, setSettings] = useState<Settings | null>(null);
  const [history, setHistory] = useState<RunSummary[]>([]);
  /** The shown stored run: its header, whose steps are read whole as they are looked at. */
  const [run, setRun] = useState<RunHeader | null>(null);
  const [live, setLive] = useState<LiveState | null>(null);

  // The task picker names the task of the run on screen, so Run all runs that task; a run of
  // a suite leaves it as the user left it: a suite is many tasks' runs, opened (and followed
  // live) one after the other, none of them the task the user picked to run.
  const shownTask = run && !run.suite_run ? run.task : undefined;
  const pickedName = task?.task.name;
  useEffect(() => {
    if (!shownTask || shownTask === pickedName) return;
    const t = tasks.find((x) => x.task.name === shownTask);
    if (t) setTaskRef(t.ref);
  }, [shownTask, pickedName, tasks]);
  /** Picks a task; a stored run of another task on screen makes way for it. */
  const chooseTask = useCallback((ref: string) => {
    setTaskRef(ref);
    const name = tasks.find((x) => x.ref === ref)?.task.name;
    setRun((r) => (r && name !== undefined && r.task !== name ? null : r));
  }, [tasks]);
  /** Runs this window has closed: their late events must not start a live view again. */
  const closedRuns = useRef<string[]>([]);
  const closeRun = (id: string | null | undefined) => {
    if (id && !closedRuns.current.includes(id)) closedRuns.current = [...closedRuns.current, id];
  };
  /** What the last import found wrong in its file, with the run it stored. */
  const [imported, setImported] = useState<{ runId: string; disagreements: Disagreement[] } | null>(null);
  const [message, setMessage] = useState<Message | null>(null);
  /** The id of the live run whose finish should load it; null while Start has not answered. */
  const tracking = useRef<string | null | undefined>(undefined);
  /** For each question of which run is going still unanswered, the run events since it was
   * asked: they are folded in after its answer. */
  const held = useRef(new Set<Progress[]>());
  /** The live state and the shown run as of the last render, for the handlers. */
  const liveNow = useRef<LiveState | null>(null);
  /** Opens a stored run (openRun, once it is defined). */
  const openRunRef = useRef<(id: string) => void>(() => {});
  /** Shows a run started elsewhere live (resume, once it is defined). */
  const follow = useRef<(id: string) => void>(() => {});
  const runNow = useRef<RunHeader | null>(null);
  /** The run a deep link named (a prefix of its id, as links may give): see linkHolds. */
  const linked = useRef<string | null>(parseRoute(window.location.hash)?.run ?? null);
  /**
   * Whether a deep link holds the view: the address names the run a link asked for, and that
   * run is on screen or still being opened. A run going elsewhere (another window, the command
   * line) then does not take the view from it, as it does from a window showing nothing or the
   * newest run it opened by itself.
   */
  const linkHolds = useCallback(() => {
    const id = linked.current;
    const r = parseRoute(window.location.hash);
    if (!id || !r?.run.startsWith(id)) return false;
    const shown = runNow.current;
    return !shown || shown.id.startsWith(id);
  }, []);
  useEffect(() => {
    liveNow.current = live;
    runNow.current = run;
  }, [live, run]);

  const fail = useCallback((what: string) => (err: unknown) => {
    const e = toApiError(err);
    setMessage({ kind: "error", text: `${what}: ${e.message}`, error: { kind: e.kind, path: e.path } });
  }, []);

  const refreshHistory = useCallback(() => {
    api.history.list().then((h) => setHistory((prev) => changed(prev, h)), fail("Could not load the run history"));
  }, [api, fail]);

  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible") refreshHistory();
    }, HISTORY_POLL_MS);
    return () => clearInterval(timer);
  }, [refreshHistory]);

  useEffect(() => {
    api.session.ready().then(setSession, fail("Could not reach the backend"));
    api.tasks.list().then((t) => setTasks(t ?? []), fail("Could not load the tasks"));
    api.settings.get().then(setSettings, fail("Could not load the settings"));
    refreshHistory();
  }, [api, fail, refreshHistory]);

  const onProgress = useCallback(
    (p: Progress) => {
      // A run this window finished, stopped or reset may still have events on the way; they
      // must not touch the live view or load that run, even before the new run's id is known.
      if (closedRuns.current.includes(p.run_id)) return;
      if (held.current.size) {
        held.current.forEach((came) => came.push(p));
        return;
      }
      // A run another window started is followed here too, unless this window shows one going.
      if (p.kind === "run-started" && tracking.current === undefined && liveNow.current?.status !== "running") {
        if (!linkHolds()) follow.current(p.run_id);
        return;
      }
      setLive((s) => (s ? applyProgress(s, p) : s));
      const t = tracking.current;
      if (p.kind === "run-finished") closeRun(p.run_id);
      if (p.kind === "run-finished" && t !== undefined && (t === null || t === p.run_id)) {
        tracking.current = undefined;
        api.history.header(p.run_id).then(setRun, fail("Could not load the finished run"));
        refreshHistory();
      }
    },
    [api, fail, refreshHistory, linkHolds],
  );

  useEffect(() => api.onProgress(onProgress), [api, onProgress]);

  /**
   * Asks which run is going and shows it live as a window open since its start would: its
   * events so far, then those that came while the window asked, each folded in once (a view
   * of it already there gets only what it lacks). wanted, when given, is the only run to show;
   * without it, a run a deep link holds the view for (linkHolds) is not replaced.
   */
  const resume = useCallback(
    async (wanted?: string): Promise<void> => {
      const came: Progress[] = [];
      held.current.add(came);
      let g: GoingRun | null = null;
      try {
        g = await api.runs.going();
      } catch (err) {
        fail("Could not ask which run is going")(err);
      } finally {
        held.current.delete(came);
      }
      const id = g?.id;
      if (g && id && (wanted ? id === wanted : !linkHolds()) && !closedRuns.current.includes(id)) {
        const going = g;
        tracking.current = id;
        setLive((now) => (now?.runId === id ? foldAll(now, going.events ?? []) : resumeLive(going)));
      }
      // with another question still out, these events wait in its list too
      if (held.current.size === 0) came.forEach(onProgress);
    },
    [api, fail, onProgress, linkHolds],
  );

  /**
   * Opens a stored run by its header; resolves to it, or null on failure. A run still going
   * is shown live, and loaded again when it ends.
   */
  const openRun = useCallback(
    async (id: string): Promise<RunHeader | null> => {
      try {
        const r = await api.history.header(id);
        const now = liveNow.current;
        if (now?.status !== "running" || now.runId !== r.id) setLive(null);
        // a run still going is loaded again when it ends, whether or not it is shown live
        tracking.current = r.status === "running" ? r.id : undefined;
        setRun(r);
        if (r.status === "running") await resume(r.id);
        return r;
      } catch (err) {
        fail(`Could not open run ${id}`)(err);
        return null;
      }
    },
    [api, fail, resume],
  );

  /** Makes the run a deep link names (id may be a prefix of its id) hold the view: see linkHolds. */
  const holdLink = useCallback((id: string) => {
    linked.current = id;
  }, []);

  /** Opens the run a deep link names, which then holds the view (see linkHolds). */
  const openLinked = useCallback(
    async (id: string): Promise<RunHeader | null> => {
      linked.current = id;
      const r = await openRun(id);
      if (!r && linked.current === id) linked.current = null;
      return r;
    },
    [openRun],
  );

  useEffect(() => {
    follow.current = (id) => void resume(id);
    openRunRef.current = (id) => void openRun(id);
  }, [resume, openRun]);

  // A window that opens (or reloads) while a run goes shows it live. Over HTTP the socket's
  // first open asks again (below): events sent between this answer and that open are lost.
  // With no run going and no run named in the address, it opens the newest stored run, so
  // the table shows what last ran rather than "has not run yet".
  useEffect(() => {
    let current = true;
    Promise.all([api.history.list(), resume()]).then(([h]) => {
      if (!current || !h?.length || liveNow.current || runNow.current || parseRoute(window.location.hash)) return;
      openRunRef.current(h[0].id);
    }, () => {}); // the history's own poll reports a failure
    return () => {
      current = false;
    };
  }, [api, resume]);

  // Events sent before the event stream (re)connected are lost: re-read the run going (the
  // one shown live, or any when nothing is shown) and the history, and finish a live run that
  // ended meanwhile as its run-finished event would have.
  useEffect(
    () =>
      api.onConnect(() => {
        const now = liveNow.current;
        if (now?.status === "running" && now.runId) resume(now.runId);
        else if (!now && !runNow.current) resume();
        api.history.list().then((h) => {
          setHistory(h ?? []);
          const missed = liveNow.current && missedFinish(liveNow.current, h ?? []);
          if (missed) onProgress(missed);
        }, fail("Could not reload the run history after reconnecting"));
      }),
    [api, fail, onProgress, resume],
  );

  /** Runs slugs of a task (the picked one unless given; all its attempts when none are named). */
  const runAttempts = useCallback(
    (slugs: string[], of: TaskInfo | null = task) => {
      if (!of || (live && live.status === "running")) return;
      const refused = (of.env ?? []).filter((v) => !v.allowed);
      if (refused.length > 0 && !window.confirm(envQuestion(refused))) {
        setMessage({ kind: "info", text: "Not run: the task reads environment variables you did not allow." });
        return;
      }
      const allow_env = refused.length > 0 ? refused.map((v) => v.name) : undefined;
      const all = (of.attempts ?? []).map((a) => a.slug);
      const shown = runNow.current;
      setRun(null);
      setImported(null);
      // A run of some attempts is a new run: the one on screen makes way, kept in the history.
      setMessage(
        slugs.length && shown
          ? { kind: "info", text: `A new run of ${slugs.length === 1 ? "this attempt" : `${slugs.length} attempts`} started; run ${shown.id} stays in the history.` }
          : null,
      );
      setLive(startLive(slugs.length ? slugs : all));
      tracking.current = null;
      api.runs.start({ task: of.ref, attempts: slugs, config: settings?.config ?? null, allow_env }).then(
        (id) => {
          if (tracking.current === null) tracking.current = id;
          setLive((s) => (s && s.runId === null ? { ...s, runId: id } : s));
        },
        (err) => {
          tracking.current = undefined;
          setLive(null);
          fail("Could not start the run")(err);
        },
      );
    },
    [api, fail, task, live, settings],
  );

  const stop = useCallback(() => {
    api.runs.stop().catch(fail("Could not stop the run"));
  }, [api, fail]);

  const reset = useCallback(() => {
    api.runs.reset().then(() => {
      closeRun(live?.runId ?? tracking.current);
      tracking.current = undefined;
      setLive(null);
      setRun(null);
      setImported(null);
      setMessage(null);
    }, fail("Could not reset"));
  }, [api, fail, live]);

  const shownId = run?.id ?? live?.runId ?? null;

  const exportShown = useCallback(
    (format: ExportFormat) => {
      if (!shownId) return;
      exportRun(api, shownId, format).then((text) => text && setMessage({ kind: "info", text }), fail("Could not export the run"));
    },
    [api, fail, shownId],
  );

  const saveShownMedia = useCallback(
    (name: string) => {
      if (!shownId) return;
      saveMedia(api, shownId, name).then((text) => text && setMessage({ kind: "info", text }), fail(`Could not save ${name}`));
    },
    [api, fail, shownId],
  );

  const exportShownHAR = useCallback(
    (slug: string) => {
      if (!shownId) return;
      exportRun(api, shownId, "har", slug).then((text) => text && setMessage({ kind: "info", text }), fail(`Could not export the HAR of ${slug}`));
    },
    [api, fail, shownId],
  );

  const loadLedger = useCallback((id: string, slug: string) => api.analysis.ledger(id, slug), [api]);
  const loadRequests = useCallback((id: string, slug: string) => api.history.requests(id, slug), [api]);

  const exportShownLedger = useCallback(
    (slug: string) => {
      if (!shownId) return;
      exportRun(api, shownId, "ledger", slug).then((text) => text && setMessage({ kind: "info", text }), fail("Could not export the ledger"));
    },
    [api, fail, shownId],
  );

  const importRun = useCallback(
    async (file?: File) => {
      try {
        const res = file ? await api.files.upload(file) : await api.files.importDialog();
        if (!res.run_id) return;
        setImported({ runId: res.run_id, disagreements: res.disagreements ?? [] });
        await openRun(res.run_id);
        refreshHistory();
        setMessage({ kind: "info", text: `Imported ${file ? file.name : "the file"}; verdicts recomputed by replay.` });
      } catch (err) {
        fail(`Could not import ${file ? file.name : "the file"}`)(err);
      }
    },
    [api, fail, openRun, refreshHistory],
  );

  /** Deletes a stored run and its media; the shown run, if it was the one, is closed. */
  const deleteRun = useCallback(
    (id: string) => {
      api.history.delete(id).then(() => {
        setRun((r) => (r?.id === id ? null : r));
        setImported((i) => (i?.runId === id ? null : i));
        setMessage({ kind: "info", text: `Deleted run ${id}.` });
        refreshHistory();
      }, fail(`Could not delete run ${id}`));
    },
    [api, fail, refreshHistory],
  );

  /** Reads a task file in the browser, has the backend check and remember it, and picks it. */
  const openTaskFile = useCallback(
    async (file: File) => {
      try {
        const info = await api.tasks.load(file.name, await file.text());
        setTasks((ts) => [...ts.filter((t) => t.ref !== info.ref), info]);
        setTaskRef(info.ref);
        setMessage({ kind: "info", text: `Opened ${file.name}: task ${info.task.name}.` });
      } catch (err) {
        fail(`Could not open ${file.name}`)(err);
      }
    },
    [api, fail],
  );

  /** Picks a task file in the desktop's native dialog (remembered by its path) and chooses it. */
  const openTaskDialog = useCallback(async () => {
    try {
      const info = await api.tasks.openDialog();
      if (!info.ref) return;
      setTasks((ts) => [...ts.filter((t) => t.ref !== info.ref), info]);
      setTaskRef(info.ref);
      setMessage({ kind: "info", text: `Opened ${info.file ?? "the task file"}: task ${info.task.name}.` });
    } catch (err) {
      fail("Could not open the task file")(err);
    }
  }, [api, fail]);

  /** Drops a task file from the recent tasks. */
  const forgetTask = useCallback(
    (ref: string) => {
      api.tasks.forget(ref).then(() => {
        setTasks((ts) => ts.filter((t) => t.ref !== ref));
        setTaskRef((r) => (r === ref ? null : r));
      }, fail("Could not forget the task"));
    },
    [api, fail],
  );

  const saveSettings = useCallback(
    (s: Settings) => {
      api.settings.save(s).then(() => {
        setSettings(s);
        setMessage({ kind: "info", text: "Settings saved; the next run uses them." });
      }, fail("Could not save the settings"));
    },
    [api, fail],
  );

  return {
    session,
    tasks,
    task,
    chooseTask,
    /** Clears the message shown (an error panel dismissed). */
    dismissMessage: () => setMessage(null),
    openTaskFile,
    openTaskDialog,
    forgetTask,
    settings,
    history,
    run,
    live,
    imported,
    message,
    shownId,
    runAttempts,
    stop,
    reset,
    saveShownMedia,
    exportShownHAR,
    loadLedger,
    loadRequests,
    exportShownLedger,
    exportShown,
    importRun,
    openRun,
    openLinked,
    holdLink,
    deleteRun,
    saveSettings,
  };
}
