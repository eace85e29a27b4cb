import { useRef, useState } from "react";
import type { ExportFormat } from "../api/transfer";
import type { SessionInfo, SuiteRequest, TaskInfo } from "../api/types";
import { SuiteLauncher } from "./SuiteLauncher";
import { TaskPicker } from "./TaskPicker";
import { ThemePicker } from "./ThemePicker";

/** Props of Header. */
export interface HeaderProps {
  tasks: TaskInfo[];
  task: TaskInfo | null;
  /** The backend's answer to Session.Ready; null until it answers. */
  session: SessionInfo | null;
  running: boolean;
  canExport: boolean;
  settingsOpen: boolean;
  metricsOpen: boolean;
  /** True in a browser, where import and Open task read a file input; the desktop uses native dialogs. */
  fileInput: boolean;
  onRunAll(): void;
  /** Starts trials of tasks as a suite run; resolves to why it could not start, or null. */
  onStartSuite(req: SuiteRequest): Promise<string | null>;
  onStop(): void;
  onReset(): void;
  /** Called with the chosen format: the run file (.json), the bundle (.zip with media) or the report (.html). */
  onExport(format: ExportFormat): void;
  /** Called with the chosen file in a browser, or with nothing in the desktop. */
  onImport(file?: File): void;
  onToggleSettings(): void;
  onToggleMetrics(): void;
  onChooseTask(ref: string): void;
  onOpenTask(file: File): void;
  /** Called in the desktop to open a task file through the native dialog. */
  onOpenTaskDialog(): void;
  onForgetTask(ref: string): void;
}

/** The app bar: the version, the task picker, the run controls, settings and the theme. */
export function Header(p: HeaderProps) {
  const file = useRef<HTMLInputElement>(null);
  const [exportOpen, setExportOpen] = useState(false);
  const exportAs = (format: ExportFormat) => {
    setExportOpen(false);
    p.onExport(format);
  };
  return (
    <header className="app-header">
      <h1>Observatory</h1>
      <div className="title">
        {p.session && <span className="muted num session" title={`${p.session.version} · ${p.session.transport}: data in ${p.session.data_dir}`}>{p.session.version} · {p.session.transport}</span>}
      </div>
      <TaskPicker
        tasks={p.tasks}
        task={p.task}
        disabled={p.running}
        fileInput={p.fileInput}
        onChoose={p.onChooseTask}
        onOpen={p.onOpenTask}
        onOpenDialog={p.onOpenTaskDialog}
        onForget={p.onForgetTask}
      />
      <div className="controls" role="toolbar" aria-label="Run controls">
        <button type="button" className="primary" onClick={p.onRunAll} disabled={p.running || !p.task || !!p.task.missing}>Run all</button>
        <SuiteLauncher tasks={p.tasks} task={p.task} disabled={p.running} onStart={p.onStartSuite} />
        <button type="button" onClick={p.onStop} disabled={!p.running}>Stop</button>
        <button type="button" onClick={p.onReset}>Reset</button>
        <span className="sep" aria-hidden="true" />
        <div className="dropdown" onKeyDown={(e) => e.key === "Escape" && setExportOpen(false)}>
          <button type="button" aria-expanded={exportOpen && p.canExport} onClick={() => setExportOpen((o) => !o)} disabled={!p.canExport}>
            Export <span aria-hidden="true">▾</span>
          </button>
          {exportOpen && p.canExport && (
            <div className="dropdown-menu" role="group" aria-label="Export as">
              <button type="button" aria-label="Export run file" onClick={() => exportAs("run")}>
                Export run file <span className="muted">.json</span>
              </button>
              <button type="button" aria-label="Export bundle" onClick={() => exportAs("bundle")}>
                Export bundle <span className="muted">.zip with video and screenshots</span>
              </button>
              <button type="button" aria-label="Export report" onClick={() => exportAs("report")}>
                Export report <span className="muted">.html anyone can open</span>
              </button>
            </div>
          )}
        </div>
        <button type="button" onClick={() => (p.fileInput ? file.current?.click() : p.onImport())} disabled={p.running}>Import</button>
        {p.fileInput && (
          <input
            ref={file}
            type="file"
            accept=".json,.zip,application/json,application/zip"
            hidden
            data-testid="import-file"
            onChange={(e) => {
              const f = e.target.files?.[0];
              e.target.value = "";
              if (f) p.onImport(f);
            }}
          />
        )}
        <button type="button" aria-pressed={p.metricsOpen} onClick={p.onToggleMetrics}>Metrics</button>
        <button type="button" aria-pressed={p.settingsOpen} onClick={p.onToggleSettings}>Settings</button>
        <ThemePicker />
      </div>
    </header>
  );
}
