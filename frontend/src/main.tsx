import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { windowApi } from "./api/client";
import { App } from "./App";
import "./styles.css";
import { applyTheme, storedTheme } from "./theme";

applyTheme(storedTheme());

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <App api={windowApi()} />
  </StrictMode>,
);
