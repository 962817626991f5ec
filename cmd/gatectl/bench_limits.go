//go:build gatectl_bench

package main

// A gatectl built with -tags gatectl_bench (BenchmarkCheckVsPython's)
// takes manifests of up to 100,000 tools, so that a check can be measured
// above the default cap.
func init() { manifestLimits.MaxTools = 100_000 }
