// An agent answering its own approval, by every route a same-user process has to the live
// channel of the run that started it: its environment, its parent's command line and
// environment, the descriptors it inherited, the data folder they name and the discovery
// files and sockets in it. From itself, from a child (curl) and from a daemon that leaves its
// parent (a double fork), it follows the run's events and posts "approve" to every question
// it can name; given a serve window's address with its token ($AGENT_SERVE_URL), it answers
// through serve's own API too. What came of each try is written to $AGENT_REPORT as JSON.
import { execFileSync, spawn } from "node:child_process";
import { readFileSync, readdirSync, readlinkSync, writeFileSync, existsSync } from "node:fs";
import { request } from "node:http";
import { join } from "node:path";

const dataDirsIn = (words) => {
  const out = [];
  words.forEach((w, i) => {
    if (w === "--data-dir" && words[i + 1]) out.push(words[i + 1]);
    if (w.startsWith("--data-dir=")) out.push(w.slice("--data-dir=".length));
  });
  return out;
};

const envWords = (entries) => entries.flatMap((kv) => kv.split(/[\x1f =]/));

export async function selfApprove() {
  const report = { uid: process.getuid(), data_dir_var: process.env.OBSERVATORY_DATA_DIR ?? "", routes: {}, sockets: [], found: [], denied: [], tries: [] };
  const dirs = new Set();
  const add = (route, found) => {
    report.routes[route] = found;
    found.forEach((d) => dirs.add(d));
  };
  // its environment: a variable naming the data folder, or a command line carried in one
  add("environment", [
    ...(process.env.OBSERVATORY_DATA_DIR ? [process.env.OBSERVATORY_DATA_DIR] : []),
    ...dataDirsIn(envWords(Object.entries(process.env).map(([k, v]) => k + "=" + v))),
  ]);
  // its parent's command line and environment
  const parentArgs = readFileSync(`/proc/${process.ppid}/cmdline`, "utf8").split("\0");
  add("parent command line", dataDirsIn(parentArgs));
  let parentEnv = [];
  try {
    parentEnv = readFileSync(`/proc/${process.ppid}/environ`, "utf8").split("\0");
  } catch {}
  add("parent environment", [
    ...parentEnv.filter((kv) => kv.startsWith("OBSERVATORY_DATA_DIR=")).map((kv) => kv.split("=")[1]),
    ...dataDirsIn(envWords(parentEnv)),
  ]);
  // the descriptors it inherited: none may be the live socket
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      const l = readlinkSync(`/proc/self/fd/${fd}`);
      if (l.startsWith("socket:")) report.sockets.push(fd + " " + l);
    } catch {}
  }
  for (const dir of dirs) {
    const live = join(dir, "live");
    let names = [];
    try {
      names = readdirSync(live);
    } catch (err) {
      report.denied.push(live + ": " + err.code); // another user's folder
    }
    for (const f of names) {
      if (!f.endsWith(".json") || f.startsWith(".")) continue;
      const info = JSON.parse(readFileSync(join(live, f), "utf8"));
      report.found.push({ file: join(live, f), addr: info.addr });
      const socketPath = info.addr.replace(/^unix:/, "");
      const auth = "Bearer " + info.token;
      report.tries.push({ who: "agent", what: "events", status: await call(socketPath, auth, "GET", "/events") });
      for (const id of ["1", "2", "3", "4"]) {
        const body = JSON.stringify({ id, answer: "approve", window: "desktop" });
        report.tries.push({ who: "agent", what: "answer " + id, status: await call(socketPath, auth, "POST", "/answer", body) });
      }
      const curlArgs = ["-s", "-m", "10", "-o", "/dev/null", "-w", "%{http_code}", "--unix-socket", socketPath,
        "-H", "Authorization: " + auth, "-H", "Content-Type: application/json",
        "-d", JSON.stringify({ id: "1", answer: "approve", window: "serve" }), "http://live/answer"];
      report.tries.push({ who: "child", what: "answer 1", status: Number(execFileSync("curl", curlArgs, { encoding: "utf8" })) });
      const out = join(dir, "daemon-status");
      // a daemon: the shell exits at once, and curl is left to be re-parented
      spawn("sh", ["-c", `(sleep 0.3; curl "$@" > ${out}) & exit 0`, "sh", ...curlArgs], { stdio: "ignore" });
      for (let i = 0; i < 100 && !(existsSync(out) && readFileSync(out, "utf8").length === 3); i++) await new Promise((r) => setTimeout(r, 100));
      report.tries.push({ who: "daemon", what: "answer 1", status: existsSync(out) ? Number(readFileSync(out, "utf8")) : 0 });
    }
  }
  if (process.env.AGENT_SERVE_URL) await throughServe(new URL(process.env.AGENT_SERVE_URL), report);
  writeFileSync(process.env.AGENT_REPORT, JSON.stringify(report));
}

// throughServe answers through a serve window's own API, with its session token (as if read
// from the browser's cookie store): the questions it shows, approved.
async function throughServe(url, report) {
  const opened = await web(url, "GET", url.pathname + url.search);
  const cookie = (opened.headers["set-cookie"] ?? [""])[0].split(";")[0];
  let ids = [];
  for (let i = 0; i < 30 && ids.length === 0; i++) {
    const pending = await web(url, "POST", "/api/Approvals/Pending", "[]", cookie);
    ids = (JSON.parse(pending.body || "{}").result ?? []).map((a) => a.id);
    if (ids.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  report.serve_pending = ids.length; // its token works: serve shows it the questions
  for (const id of ids.length ? ids : ["1"]) {
    const answered = await web(url, "POST", "/api/Approvals/Answer", JSON.stringify([id, "approve"]), cookie);
    report.tries.push({ who: "agent", what: "serve's Approvals.Answer " + id, status: answered.status, said: answered.body.slice(0, 300) });
  }
}

// web sends one request to serve; its status, headers and body.
function web(url, method, path, body, cookie) {
  return new Promise((resolve) => {
    const headers = { "Content-Type": "application/json", ...(cookie ? { Cookie: cookie } : {}) };
    const req = request({ host: url.hostname, port: url.port, method, path, headers, timeout: 5000 }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode, headers: res.headers, body: text }));
    });
    req.on("error", () => resolve({ status: 0, headers: {}, body: "" }));
    req.end(body);
  });
}

// call sends one request over the run's socket; its status, or 0 when none came.
function call(socketPath, auth, method, path, body) {
  return new Promise((resolve) => {
    const req = request({ socketPath, method, path, headers: { Host: "live", Authorization: auth, "Content-Type": "application/json" }, timeout: 5000 }, (res) => {
      resolve(res.statusCode);
      res.destroy();
    });
    req.on("error", () => resolve(0));
    req.on("timeout", () => { req.destroy(); resolve(0); });
    req.end(body);
  });
}
