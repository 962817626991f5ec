package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// prometheusServer is a real Prometheus on loopback, scraping one target.
type prometheusServer struct {
	url    string
	client *http.Client
}

// startPrometheus runs the prometheus binary with its data in a temporary
// directory, scraping target's /metrics every 200 ms, and stops it when the
// test ends. Prometheus takes no port 0, so it is given a port free a
// moment before; one taken in between makes it exit, and another is tried.
func startPrometheus(t *testing.T, target string) *prometheusServer {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	require.NoError(t, err, "prometheus (Debian package prometheus; scripts/test installs it)")
	dir := t.TempDir()
	config := filepath.Join(dir, "prometheus.yml")
	require.NoError(t, os.WriteFile(config, []byte(fmt.Sprintf(`
global:
  scrape_interval: 200ms
  scrape_timeout: 200ms
scrape_configs:
  - job_name: gate
    static_configs:
      - targets: [%q]
`, target)), 0o644))

	var lastErr string
	for try := range 3 {
		addr := freeLoopbackAddr(t)
		var logs bytes.Buffer
		cmd := exec.Command(bin, "--config.file="+config, "--web.listen-address="+addr,
			"--storage.tsdb.path="+filepath.Join(dir, fmt.Sprint("data", try)), "--log.level=warn")
		cmd.Stdout, cmd.Stderr = &logs, &logs
		require.NoError(t, cmd.Start())
		exited := make(chan struct{})
		go func() {
			_ = cmd.Wait()
			close(exited)
		}()
		p := &prometheusServer{url: "http://" + addr, client: &http.Client{Timeout: 5 * time.Second}}
		if p.waitReady(exited) {
			t.Cleanup(func() {
				_ = cmd.Process.Signal(syscall.SIGTERM)
				select {
				case <-exited:
				case <-time.After(10 * time.Second):
					_ = cmd.Process.Kill()
					<-exited
				}
			})
			return p
		}
		_ = cmd.Process.Kill()
		<-exited
		lastErr = logs.String()
	}
	t.Fatalf("prometheus did not start in 3 tries:\n%s", lastErr)
	return nil
}

func freeLoopbackAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := l.Addr().String()
	require.NoError(t, l.Close())
	return addr
}

// waitReady polls /-/ready until Prometheus answers 200 (true), exits or
// a minute passes (false).
func (p *prometheusServer) waitReady(exited <-chan struct{}) bool {
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return false
		default:
		}
		if resp, err := p.client.Get(p.url + "/-/ready"); err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	return false
}

// promSample is one series of an instant query's vector.
type promSample struct {
	Metric map[string]string `json:"metric"`
	Value  [2]any            `json:"value"`
}

func (s promSample) value() string {
	v, _ := s.Value[1].(string)
	return v
}

// query runs an instant PromQL query through Prometheus's HTTP API.
func (p *prometheusServer) query(t *testing.T, q string) []promSample {
	t.Helper()
	resp, err := p.client.Get(p.url + "/api/v1/query?query=" + url.QueryEscape(q))
	require.NoError(t, err)
	defer resp.Body.Close()
	var answer struct {
		Status string `json:"status"`
		Error  string `json:"error"`
		Data   struct {
			Result []promSample `json:"result"`
		} `json:"data"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&answer))
	require.Equal(t, "success", answer.Status, "query %s: %s", q, answer.Error)
	return answer.Data.Result
}

// waitQuery runs q until ok accepts its answer, for at most a minute:
// Prometheus sees a change at its next scrape, on a busy machine later.
func (p *prometheusServer) waitQuery(t *testing.T, q, what string, ok func([]promSample) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for {
		got := p.query(t, q)
		if ok(got) {
			return
		}
		require.True(t, time.Now().Before(deadline), "%s: query %s answered %v for a minute", what, q, got)
		time.Sleep(50 * time.Millisecond)
	}
}

func oneValue(want string) func([]promSample) bool {
	return func(s []promSample) bool { return len(s) == 1 && s[0].value() == want }
}

// TestMetricsRealPrometheus: a real Prometheus scraping the API sees one
// tool's gate_tool_up go from 1 to 0 when the port its probe dials
// closes, with the reason's code, and loses every series of the tool when
// a reload drops it from the manifest.
func TestMetricsRealPrometheus(t *testing.T) {
	metrics := NewMetrics()
	f, l := flipFixture(t, metrics, Options{})
	prom := startPrometheus(t, strings.TrimPrefix(f.url, "http://"))

	prom.waitQuery(t, `gate_tool_up{tool="db_query"}`, "the tool is up", oneValue("1"))
	prom.waitQuery(t, `gate_server_up{server="mcp:db"}`, "the server is up", oneValue("1"))

	require.NoError(t, l.Close())
	prom.waitQuery(t, `gate_tool_up{tool="db_query"}`, "the tool goes down", oneValue("0"))
	prom.waitQuery(t, `gate_tool_reason{tool="db_query"}`, "the reason's code", func(s []promSample) bool {
		return len(s) == 1 && s[0].Metric["code"] == "refused"
	})
	prom.waitQuery(t, `gate_tool_up{tool="echo"}`, "the other tool stays up", oneValue("1"))

	writeManifest(t, filepath.Dir(f.svc.Gate().ManifestPath()), `
[[tools]]
name = "echo"
description = "Always here."
`)
	require.NoError(t, f.svc.Reload(context.Background()))
	prom.waitQuery(t, `{tool="db_query"}`, "the dropped tool's series go", func(s []promSample) bool { return len(s) == 0 })
	prom.waitQuery(t, `{server="mcp:db"}`, "the dropped server's series go", func(s []promSample) bool { return len(s) == 0 })
	prom.waitQuery(t, `gate_tool_up{tool="echo"}`, "the kept tool is still scraped", oneValue("1"))
}
