import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { windowApi } from "./api/client";
import { App } from "./App";
import { withDeepLinkPrefetch } from "./state/prefetch";
import "./styles.css";
import { applyTheme, storedTheme } from "./theme";

applyTheme(storedTheme());
const api = withDeepLinkPrefetch(windowApi(), window.location.hash);

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App api={api} />
  </StrictMode>,
);
