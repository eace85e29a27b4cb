// Package uitest drives the Observatory window in headless Chromium against the real `serve`
// handler: it runs attempts, steps through traces with the keyboard, exports, resets,
// imports and replays, and checks the recorded video, asserting what the page shows.
//
// The tests need the built frontend (`npm run build` in frontend/; scripts/test.sh does it)
// and Debian's Chromium; they share one browser per package run. The package holds only
// tests and this file.
package uitest
