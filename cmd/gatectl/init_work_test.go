package main

import (
	"bufio"
	"bytes"
	"cmp"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// Bounds on the work every package init in gatectl does together, which
// every command pays before it starts, `gatectl --version` included. The
// bounds leave room for small inits that come and go, not for one that
// builds tables.
//
// The JSON Schema library gate validates tools' parameters with compiles
// the meta-schemas of five drafts in its init. gate uses it as released
// (docs/RATIONALE.md says why not a patched copy), so its init is bounded
// on its own by maxSchemaLibInit*, which an upgrade that made it heavier
// would break, and the bounds on all the others stay tight.
//
// gate's own packages are held closer: each init at most maxOwnInitAllocs
// (internal/host's tables are the largest), so that one of ours that
// builds at init what only some commands use (a codec built by
// reflection did) is caught even while the total has room.
const (
	maxInitBytes     = 1 << 20
	maxInitAllocs    = 8_000
	maxOwnInitAllocs = 300

	schemaLib             = "github.com/santhosh-tekuri/jsonschema/v6"
	maxSchemaLibInitBytes = 2 << 20
	maxSchemaLibAllocs    = 25_000
)

// initLine is one line of GODEBUG=inittrace=1: "init PKG @T ms, C ms
// clock, B bytes, A allocs".
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestInitWork runs the built gatectl with GODEBUG=inittrace=1 and bounds
// the bytes and allocations of all its package inits together, naming
// the largest when over: a dependency that computes at init what only
// some command uses costs every command.
func TestInitWork(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("builds gatectl")
	}
	cmd := exec.Command(buildUserGatectl(t), "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	require.NoError(t, cmd.Run(), "%s", stderr.Bytes())

	type initWork struct {
		pkg           string
		bytes, allocs int64
	}
	var inits []initWork
	var bytesSum, allocsSum int64
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		b, _ := strconv.ParseInt(m[2], 10, 64)
		a, _ := strconv.ParseInt(m[3], 10, 64)
		if m[1] == schemaLib {
			require.LessOrEqual(t, b, int64(maxSchemaLibInitBytes), "%s's init bytes", schemaLib)
			require.LessOrEqual(t, a, int64(maxSchemaLibAllocs), "%s's init allocations", schemaLib)
			continue
		}
		inits = append(inits, initWork{m[1], b, a})
		bytesSum += b
		allocsSum += a
	}
	require.Greater(t, len(inits), 50, "no inittrace lines read from:\n%s", stderr.Bytes())
	for _, w := range inits {
		if strings.HasPrefix(w.pkg, "github.com/gate-dev/gate/") && w.allocs > maxOwnInitAllocs {
			t.Errorf("%s's init made %d allocations (at most %d): build it on first use", w.pkg, w.allocs, maxOwnInitAllocs)
		}
	}
	if bytesSum <= maxInitBytes && allocsSum <= maxInitAllocs {
		return
	}
	slices.SortFunc(inits, func(x, y initWork) int { return cmp.Compare(y.bytes, x.bytes) })
	var top strings.Builder
	for _, w := range inits[:5] {
		fmt.Fprintf(&top, "\n  %s: %d bytes, %d allocs", w.pkg, w.bytes, w.allocs)
	}
	t.Errorf("package inits allocated %d bytes in %d allocations (at most %d and %d); the largest:%s",
		bytesSum, allocsSum, maxInitBytes, maxInitAllocs, top.String())
}
