package server

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// chromiumPath is Debian's Chromium, which scripts/test installs.
const chromiumPath = "/usr/bin/chromium"

// browserWait bounds every wait on the browser: how long a failing test
// takes, not what it measures.
const browserWait = 60 * time.Second

// browser is a headless Chromium driven over the Chrome DevTools Protocol
// on its pipe (--remote-debugging-pipe: fd 3 carries commands to it, fd 4
// its answers and events, each message JSON ended by a NUL byte), with one
// page open.
type browser struct {
	t        testing.TB
	toChrome *os.File
	session  string

	mu      sync.Mutex
	nextID  int
	waiting map[int]chan cdpMessage
	// listeners get the events of the methods a test asked for (on).
	listeners map[string]chan json.RawMessage
	closed    chan struct{} // closed when the pipe from the browser ends
}

type cdpMessage struct {
	ID     int             `json:"id,omitempty"`
	Method string          `json:"method,omitempty"`
	Params json.RawMessage `json:"params,omitempty"`
	Result json.RawMessage `json:"result,omitempty"`
	Error  *struct {
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// startBrowser starts Chromium with a fresh profile, opens a blank page
// of width×height and stops the browser when the test ends.
func startBrowser(t *testing.T, width, height int) *browser {
	t.Helper()
	cmdIn, toChrome, err := os.Pipe()
	require.NoError(t, err)
	fromChrome, cmdOut, err := os.Pipe()
	require.NoError(t, err)
	cmd := exec.Command(chromiumPath, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-extensions",
		"--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe", "--user-data-dir="+t.TempDir(), "about:blank")
	cmd.ExtraFiles = []*os.File{cmdIn, cmdOut} // fds 3 and 4
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Start(), "starting %s (scripts/test installs Debian's chromium)", chromiumPath)
	cmdIn.Close()
	cmdOut.Close()
	b := &browser{t: t, toChrome: toChrome, waiting: map[int]chan cdpMessage{}, listeners: map[string]chan json.RawMessage{}, closed: make(chan struct{})}
	go b.read(fromChrome)
	t.Cleanup(func() {
		toChrome.Close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		fromChrome.Close()
		if t.Failed() {
			t.Logf("chromium's stderr:\n%s", stderr.String())
		}
	})

	var target struct{ TargetID string }
	b.call("", "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var attached struct{ SessionID string }
	b.call("", "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &attached)
	b.session = attached.SessionID
	b.do("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height, "deviceScaleFactor": 1, "mobile": false}, nil)
	return b
}

// read hands each answer to its caller, and each event a test listens
// for to its listener.
func (b *browser) read(from *os.File) {
	defer close(b.closed)
	r := bufio.NewReader(from)
	for {
		raw, err := r.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMessage
		if json.Unmarshal(raw[:len(raw)-1], &m) != nil {
			continue
		}
		if m.ID == 0 {
			b.mu.Lock()
			ch := b.listeners[m.Method]
			b.mu.Unlock()
			if ch != nil {
				ch <- m.Params
			}
			continue
		}
		b.mu.Lock()
		ch := b.waiting[m.ID]
		delete(b.waiting, m.ID)
		b.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// on returns the events of method from now on (a test reads each one it
// causes, or the reader waits for it).
func (b *browser) on(method string) <-chan json.RawMessage {
	ch := make(chan json.RawMessage, 16)
	b.mu.Lock()
	b.listeners[method] = ch
	b.mu.Unlock()
	return ch
}

// call sends a command to session ("" for the browser) and decodes its
// result into out (when not nil), failing the test on an error.
func (b *browser) call(session, method string, params any, out any) {
	b.t.Helper()
	b.mu.Lock()
	b.nextID++
	id := b.nextID
	ch := make(chan cdpMessage, 1)
	b.waiting[id] = ch
	b.mu.Unlock()
	msg := map[string]any{"id": id, "method": method, "params": params}
	if session != "" {
		msg["sessionId"] = session
	}
	raw, err := json.Marshal(msg)
	require.NoError(b.t, err)
	_, err = b.toChrome.Write(append(raw, 0))
	require.NoError(b.t, err, "%s", method)
	select {
	case m := <-ch:
		require.Nil(b.t, m.Error, "%s: %+v", method, m.Error)
		if out != nil {
			require.NoError(b.t, json.Unmarshal(m.Result, out), "%s: %s", method, m.Result)
		}
	case <-b.closed:
		b.t.Fatalf("%s: the browser went away", method)
	case <-time.After(browserWait + 10*time.Second):
		// Longer than a wait in the page (waitUntil), whose own error
		// says more.
		b.t.Fatalf("%s: no answer within %v", method, browserWait+10*time.Second)
	}
}

// do sends a command to the page.
func (b *browser) do(method string, params any, out any) {
	b.t.Helper()
	b.call(b.session, method, params, out)
}

// eval evaluates expression in the page, awaiting it when it is a
// promise, and decodes its value into out.
func (b *browser) eval(expression string, out any) {
	b.t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	b.do("Runtime.evaluate", map[string]any{"expression": expression, "awaitPromise": true, "returnByValue": true}, &res)
	if res.ExceptionDetails != nil {
		b.t.Fatalf("evaluating %s: %s %s", expression, res.ExceptionDetails.Text, res.ExceptionDetails.Exception.Description)
	}
	if out != nil {
		require.NoError(b.t, json.Unmarshal(res.Result.Value, out), "%s", res.Result.Value)
	}
}

// waitUntil waits until the page's condition (a JavaScript expression)
// holds: it is checked now and on every change of the document, which a
// MutationObserver reports, so the wait ends on the change itself.
func (b *browser) waitUntil(condition string) {
	b.t.Helper()
	b.eval(fmt.Sprintf(`new Promise((resolve, reject) => {
		const check = () => { try { return !!(%s); } catch (e) { return false; } };
		if (check()) { resolve(true); return; }
		const timer = setTimeout(() => { observer.disconnect(); reject(new Error('the page did not come to: ' + %q)); }, %d);
		const observer = new MutationObserver(() => { if (check()) { observer.disconnect(); clearTimeout(timer); resolve(true); } });
		observer.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
	})`, condition, condition, browserWait.Milliseconds()), nil)
}

// open navigates the page to url and waits until its document is loaded.
func (b *browser) open(url string) {
	b.t.Helper()
	var nav struct{ ErrorText string }
	b.do("Page.navigate", map[string]any{"url": url}, &nav)
	require.Empty(b.t, nav.ErrorText, "navigating to %s", url)
	b.eval(`new Promise(resolve => {
		if (document.readyState === 'complete') { resolve(true); return; }
		window.addEventListener('load', () => resolve(true), {once: true});
	})`, nil)
}

// screenshot writes a PNG of the page to dir/name and returns its path.
func (b *browser) screenshot(dir, name string) string {
	b.t.Helper()
	var shot struct{ Data string }
	b.do("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true}, &shot)
	png, err := base64.StdEncoding.DecodeString(shot.Data)
	require.NoError(b.t, err)
	path := filepath.Join(dir, name)
	require.NoError(b.t, os.WriteFile(path, png, 0o644))
	return path
}
