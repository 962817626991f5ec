//go:build !race

package mcpgw_test

const raceEnabled = false
