import { useCallback, useEffect, useState } from "react";
import type { Api } from "../api/client";
import type { BrowserStatus, SetupState } from "../api/types";
import { errorText } from "../api/client";

/** What useBrowsers gives the window. */
export interface Browsers {
  /** The last status read; null until the first answer. */
  status: BrowserStatus | null;
  /** The setup as last reported (events are newer than status.setup). */
  setup: SetupState | null;
  /** Why the status could not be read, or the setup not started. */
  error: string | null;
  /** Reads the status again. */
  recheck(): void;
  start(): void;
  cancel(): void;
}

/**
 * The browser the runs use and its first-run setup: reads Browsers.Status on mount, follows
 * the setup's events, and reads the status again once a setup ends (or the event stream
 * comes back), so that a panel asking for a browser goes away by itself.
 */
export function useBrowsers(api: Api): Browsers {
  const [status, setStatus] = useState<BrowserStatus | null>(null);
  const [setup, setSetup] = useState<SetupState | null>(null);
  const [error, setError] = useState<string | null>(null);

  const recheck = useCallback(() => {
    api.browsers.status().then(
      (s) => {
        setStatus(s);
        setSetup(s.setup);
        setError(null);
      },
      (e: unknown) => setError(`Checking for a browser failed: ${errorText(e)}`),
    );
  }, [api]);

  useEffect(() => {
    recheck();
    const offSetup = api.onBrowserSetup((s) => {
      setSetup(s);
      if (s.state !== "running") recheck();
    });
    const offConnect = api.onConnect(recheck);
    return () => {
      offSetup();
      offConnect();
    };
  }, [api, recheck]);

  const start = useCallback(() => {
    setError(null);
    api.browsers.setup().catch((e: unknown) => setError(`Starting the setup failed: ${errorText(e)}`));
  }, [api]);
  const cancel = useCallback(() => {
    api.browsers.cancelSetup().catch((e: unknown) => setError(`Cancelling the setup failed: ${errorText(e)}`));
  }, [api]);

  return { status, setup, error, recheck, start, cancel };
}
