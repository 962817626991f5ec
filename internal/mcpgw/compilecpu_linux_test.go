//go:build linux

package mcpgw

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// A compile is charged the CPU time it used, not the time the machine
// kept it waiting: one held off the processor (here it sleeps, using no
// CPU) for many times compileTimeout still compiles, while a compile that
// spends compileTimeout of CPU is cut (TestCompileIsBoundedInTime).
func TestCompileIsChargedItsCPUNotTheMachinesLateness(t *testing.T) {
	testHookCompile = func() { time.Sleep(8 * compileTimeout) }
	t.Cleanup(func() { testHookCompile = nil })
	saved := compileTimeout
	compileTimeout = 50 * time.Millisecond
	t.Cleanup(func() { compileTimeout = saved })

	schema := fmt.Sprintf(`{"type":"object","properties":{"held_off_%d":{}}}`, time.Now().UnixNano())
	lt := checkTool(context.Background(), toolWith(schema), &compileSlot{}, nil)
	assert.Empty(t, lt.invalid, "a compile kept off the processor is not cut for the wait")
	assert.NotNil(t, lt.tool)
}
