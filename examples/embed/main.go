// Command embed is a small agent loop that embeds gate the way an agent
// framework would:
//
//   - it opens a manifest once, at start-up (probes are compiled and
//     warmed up then, not per model call; a compiled probe is kept in the
//     cache directory gatectl uses, so the next start loads it instead);
//   - before every model call it asks for the tools a model may be offered
//     and their schema, and for the skills prompt: answers come from the
//     cache (in the same time however many tools) and stale ones are probed, all at
//     once, within one 100 ms budget;
//   - it subscribes to availability changes, so it can tell a running
//     conversation at once when a tool goes away or comes back: while it
//     has a subscriber the Gate re-probes in the background, so a change
//     is heard between model calls too, from another goroutine.
//
// Run it from the repository root:
//
//	go run ./examples/embed -m examples/quickstart/gate.toml -calls 3 -every 1s
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/runtime"
	"github.com/gate-dev/gate/runtime/schema"
)

func main() {
	var cfg config
	cfg.bind(flag.CommandLine)
	flag.Parse()
	if err := run(context.Background(), cfg, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "embed: %+v\n", err)
		os.Exit(1)
	}
}

type config struct {
	manifest string
	calls    int
	every    time.Duration
	// afterCall, when set, runs after each model call (tests change the
	// world there).
	afterCall func(call int)
}

// bind defines the command's flags, which set cfg.
func (cfg *config) bind(fs *flag.FlagSet) {
	fs.StringVar(&cfg.manifest, "m", "examples/quickstart/gate.toml", "the manifest")
	fs.IntVar(&cfg.calls, "calls", 3, "how many model calls to simulate")
	fs.DurationVar(&cfg.every, "every", time.Second, "the time between two model calls")
}

func run(ctx context.Context, cfg config, out io.Writer) error {
	g, err := runtime.Open(ctx, cfg.manifest, runtime.NewGateConfig())
	if err != nil {
		return err
	}
	defer g.Close(ctx)

	// A framework would update the conversation here; this one says so.
	// Changes come from the Gate's background refresh while the loop
	// writes too: the two take turns.
	var outMu sync.Mutex
	stop := g.OnChange(func(c runtime.Change) {
		now := "gone"
		if c.Available {
			now = "back"
		}
		line := fmt.Sprintf("  change: %s %s is %s", c.Kind, c.Name, now)
		if c.Reason != "" {
			line += fmt.Sprintf(" (%s)", c.Reason)
		}
		outMu.Lock()
		fmt.Fprintln(out, line)
		outMu.Unlock()
	})
	defer stop()

	for call := 1; call <= cfg.calls; call++ {
		tools := g.AvailableTools(ctx)
		toolSchema, err := g.Schema(ctx, schema.OpenAI)
		if err != nil {
			return err
		}
		prompt := g.SkillsPrompt(ctx)

		// Here the agent sends its request: tools=toolSchema, and the
		// skills prompt in the system message.
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		outMu.Lock()
		fmt.Fprintf(out, "model call %d: %d tools (%s), schema %d bytes, skills prompt %d bytes\n",
			call, len(tools), strings.Join(names, ", "), len(toolSchema), len(prompt))
		outMu.Unlock()

		if cfg.afterCall != nil {
			cfg.afterCall(call)
		}
		if call < cfg.calls {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(cfg.every):
			}
		}
	}
	return nil
}
