//go:build race

package skills

// raceSlowdown scales time limits in tests: the race detector makes the
// YAML parser several times slower.
const raceSlowdown = 4
