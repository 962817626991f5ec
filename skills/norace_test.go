//go:build !race

package skills

// raceSlowdown scales time limits in tests: 1 without the race detector.
const raceSlowdown = 1
