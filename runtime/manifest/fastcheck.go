package manifest

import (
	"bytes"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gate-dev/gate/probes"
)

// The fast path's tool checks run beside the decoder. A [[tools]] element
// is complete once the next [[tools]] header starts (a later header can
// only reopen the latest element), so fastDecode hands the tools to a
// toolPipe in batches as it goes, and up to GOMAXPROCS goroutines check
// them while it decodes the rest; fastDocument hands over the last ones
// (and the elements of an inline tools array) and merges the results in
// tool order. Each batch is checked by a checker of its own, which shares
// only what no check writes (the source, its line starts, the limits, the
// directory) and sees the positions of its batch's tools alone.
//
// The fast path only needs a yes or no and the Manifest: any problem in
// any batch, or anything the batch could not know, sends the parse down
// the full path, which checks everything serially and reports every
// problem in file order as before. What a batch cannot know:
//   - whether a name is used by another batch's tool: fastDocument checks
//     the names of all tools once the batches are done;
//   - runtime.budget, which may come after the tools in the file: a batch
//     checks probe budgets against no runtime budget, and fastDocument
//     then declines if any probe's budget is over runtime.budget (the
//     full path would report it).

// toolBatchSize is how many tools a batch holds: enough that handing it
// over costs nothing next to checking it, few enough that the workers
// start early and share the work evenly.
const toolBatchSize = 128

// toolBatch is a run of consecutive tools, from tools[lo], and what
// checking them found.
type toolBatch struct {
	lo  int
	els []any
	pos []elemPos

	tools []Tool
	slow  []slowSchema
	ok    bool
}

// toolPipe checks batches of tools on up to workers goroutines (in the
// caller, one batch at a time, when workers is 1).
type toolPipe struct {
	tmpl    *checker
	workers int
	// batches are every batch submitted, in tool order; next is the
	// first tool not yet submitted.
	batches []*toolBatch
	next    int
	jobs    chan *toolBatch
	wg      sync.WaitGroup
	// chunks is how many chunks a document of at least chunkMin bytes is
	// decoded in (see fastchunk.go).
	chunks, chunkMin int
	// str is the source as the decoder's strings share it (see
	// fastDecoder.str), for detach.
	str string
}

// newToolPipe makes a pipe that checks tools as c would (c's file,
// directory, source and limits), on workers goroutines (0: GOMAXPROCS).
func newToolPipe(c *checker, workers int) *toolPipe {
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	return &toolPipe{tmpl: c, workers: workers, chunks: workers, chunkMin: defaultChunkMin}
}

// reset forgets every batch, for a decoding that starts again.
func (p *toolPipe) reset() {
	p.stop()
	p.batches, p.next = nil, 0
}

// submit hands over tools[lo:lo+len(els)], whose positions are pos.
// Neither els nor pos, nor the tables in els, may change afterwards.
func (p *toolPipe) submit(lo int, els []any, pos []elemPos) {
	b := &toolBatch{lo: lo, els: els, pos: pos}
	p.batches = append(p.batches, b)
	p.next = lo + len(els)
	if p.workers <= 1 {
		p.check(b)
		return
	}
	if p.jobs == nil {
		p.jobs = make(chan *toolBatch, 256)
		for range p.workers {
			p.wg.Add(1)
			go func() {
				defer p.wg.Done()
				for b := range p.jobs {
					p.check(b)
				}
			}()
		}
	}
	p.jobs <- b
}

// stop waits for every submitted batch to be checked. It may be called
// more than once.
func (p *toolPipe) stop() {
	if p.jobs != nil {
		close(p.jobs)
		p.wg.Wait()
		p.jobs = nil
	}
}

// check checks a batch as entries and tools would, in a checker of its
// own. The checks never decline by panicking, so a panic here is a bug:
// it is recorded (see bugs.go) and fails the batch, and the full path
// then decides, from the start and in the caller's goroutine.
func (p *toolPipe) check(b *toolBatch) {
	defer func() {
		if r := recover(); r != nil {
			recordBug("toolPipe.check", r)
			b.ok = false
		}
	}()
	if fault != nil {
		fault("check")
	}
	t := p.tmpl
	w := &checker{file: t.file, dir: t.dir, src: t.src, starts: t.starts, lim: t.lim,
		fast: &fastPositions{tools: b.pos, toolsFrom: b.lo}}
	nprobes := 0
	for _, el := range b.els {
		if m, ok := el.(map[string]any); ok {
			if _, has := m["probe"]; has {
				nprobes++
			}
		}
	}
	q := quickBatch{probes: make([]Probe, 0, nprobes)}
	b.tools = make([]Tool, len(b.els))
	params := make([][2]int, len(b.els))
	for j, el := range b.els {
		tool, pr, ok := w.quickTool(&q, el, b.pos[j])
		if !ok {
			if tool, ok = w.tool(b.lo+j, el); !ok {
				return
			}
			pr = [2]int{-1, -1}
		}
		b.tools[j], params[j] = tool, pr
	}
	// The quick tools' parameters, in one allocation: a Tool keeps them
	// for its whole life, and they are its only bytes on the heap.
	if len(q.params) > 0 {
		all := bytes.Clone(q.params)
		for j, pr := range params {
			if pr[0] >= 0 {
				b.tools[j].Parameters = all[pr[0]:pr[1]:pr[1]]
			}
		}
	}
	detachTools(p.str, b.tools)
	b.slow = w.slow
	b.ok = true
}

// tool checks one tool as entries and tools do, reporting whether it is
// valid (its name's uniqueness aside).
func (w *checker) tool(i int, el any) (Tool, bool) {
	e, ok := w.entryHead(toolKind, i, el)
	if !ok {
		return Tool{}, false
	}
	w.entryTail(&e)
	tool := w.toolOf(&e)
	return tool, len(w.errs) == 0 && !w.fastMiss
}

// quickBatch is where a batch's quick tools put what they allocate.
type quickBatch struct {
	probes []Probe // with room for every probe of the batch
	params []byte  // the parameters' JSON, one after the other
}

// quickTool checks a tool of the usual shape, without building a path
// or a message: known keys only; a good name; a string description
// within the limit; a good toolset, if any; a probe, if any, written as a canonical env
// shorthand ("env:NAME"); parameters, if any, of type "object" and
// certainly valid by fastMetaValid. Its result is then what the checks of
// entries and tools give for it, its parameters' JSON being q.params[pr[0]:pr[1]].
// ok is false for any other tool, which tool then checks.
func (w *checker) quickTool(q *quickBatch, el any, ep elemPos) (tool Tool, pr [2]int, ok bool) {
	t, isTable := el.(map[string]any)
	if !isTable {
		return Tool{}, pr, false
	}
	for k := range t {
		switch k {
		case "name", "description", "parameters", "probe", "toolset":
		default:
			return Tool{}, pr, false
		}
	}
	name, ok := t["name"].(string)
	if !ok || !nameOf(name, 64, "_-") {
		return Tool{}, pr, false
	}
	tool.Name = name
	if v, has := t["description"]; has {
		s, ok := v.(string)
		if !ok || len(s) > w.lim.MaxDescription {
			return Tool{}, pr, false
		}
		tool.Description = s
	}
	if v, has := t["toolset"]; has {
		s, ok := v.(string)
		if !ok || !validToolset(s) {
			return Tool{}, pr, false
		}
		tool.Toolset = s
	}
	probe, hasProbe := t["probe"]
	if hasProbe {
		s, ok := probe.(string)
		if !ok || !canonicalEnv(s) || !ep.hasProbe {
			return Tool{}, pr, false
		}
	}
	pr = [2]int{-1, -1}
	if v, has := t["parameters"]; has {
		m, ok := v.(map[string]any)
		// fastMetaValid also means that every value is one JSON carries
		// (see TestFastMetaValidIsJSONClean): what jsonClean checks.
		if !ok || m["type"] != "object" || !fastMetaValid(m) {
			return Tool{}, pr, false
		}
		start := len(q.params)
		b, err := appendJSON(q.params, m)
		if err != nil {
			return Tool{}, pr, false
		}
		q.params = b
		pr = [2]int{start, len(b)}
	}
	if hasProbe {
		// What probes.ParseShorthand(s).String() gives back.
		q.probes = append(q.probes, Probe{Standard: probe.(string), Pos: w.pos(ep.probe.key)})
		tool.Probe = &q.probes[len(q.probes)-1]
	}
	tool.Pos = w.pos(tableSpanOf(ep.table))
	return tool, pr, true
}

// tableSpanOf is tableSpan for an entry.
func tableSpanOf(e entry) span {
	switch {
	case e.header.len > 0:
		return e.header
	case e.value.len > 0:
		return e.value
	}
	return e.key
}

// canonicalEnv reports whether s is "env:NAME" with one variable name
// ([A-Za-z_][A-Za-z0-9_]*) and nothing else: a shorthand that
// probes.ParseShorthand accepts and whose String is s itself
// (TestCanonicalEnv, FuzzCanonicalEnv).
func canonicalEnv(s string) bool {
	name, ok := strings.CutPrefix(s, "env:")
	return ok && probes.ValidEnvName(name)
}

// finish checks the tools of arr not yet submitted (positions pos), waits
// for every batch, and returns the tools in order and the parameters
// left to the library; ok is false when any check failed or two tools
// share a name.
func (p *toolPipe) finish(arr []any, pos []elemPos) (tools []Tool, slow []slowSchema, ok bool) {
	if len(pos) != len(arr) || p.next > len(arr) {
		p.stop()
		return nil, nil, false
	}
	rest := len(arr) - p.next
	size := max(32, min(toolBatchSize, (rest+p.workers-1)/p.workers))
	for lo := p.next; lo < len(arr); lo += size {
		hi := min(lo+size, len(arr))
		p.submit(lo, arr[lo:hi:hi], pos[lo:hi:hi])
	}
	p.stop()
	if len(arr) == 0 {
		return nil, nil, true
	}
	tools = make([]Tool, 0, len(arr))
	for _, b := range p.batches {
		if !b.ok {
			return nil, nil, false
		}
		tools = append(tools, b.tools...)
		slow = append(slow, b.slow...)
	}
	names := make(map[string]struct{}, len(tools))
	for _, t := range tools {
		if _, dup := names[t.Name]; dup {
			return nil, nil, false
		}
		names[t.Name] = struct{}{}
	}
	return tools, slow, true
}

// fastDocument is document on the fast path, with the tools checked by p
// (see above). Any problem sets c.fastMiss, sending the parse down the
// full path, if it adds no error.
func (c *checker) fastDocument(doc map[string]any, p *toolPipe) *Manifest {
	m := &Manifest{}
	c.unknownKeys("", doc, topKeys)
	if v, ok := doc["runtime"]; ok {
		c.runtime(&m.Runtime, v)
	}
	if v, ok := doc["skills"]; ok {
		c.skills(&m.Skills, v)
	}
	if v, ok := doc["tools"]; ok {
		if arr, isArr := v.([]any); isArr {
			tools, slow, ok := p.finish(arr, c.fast.tools)
			if !ok {
				c.fastMiss = true
				return nil
			}
			m.Tools = tools
			c.slow = append(c.slow, slow...)
			if rb := c.runtimeBudget; rb != nil && maxProbeBudget(tools) > *rb {
				c.fastMiss = true
				return nil
			}
		} else {
			m.Tools = c.tools(v)
		}
	}
	if v, ok := doc["servers"]; ok {
		m.Servers = c.servers(v)
	}
	detachRest(p.str, m)
	return m
}

// maxProbeBudget is the largest probe budget of tools (0 if none has one).
func maxProbeBudget(tools []Tool) time.Duration {
	var most time.Duration
	for i := range tools {
		if p := tools[i].Probe; p != nil && p.Budget != nil {
			most = max(most, *p.Budget)
		}
	}
	return most
}
