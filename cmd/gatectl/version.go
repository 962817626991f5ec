package main

import "runtime/debug"

// version reports the module version gatectl was built from, and the
// wazero version that compiled its probes (the compilation cache is keyed
// by it).
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	for _, d := range info.Deps {
		if d.Path == "github.com/tetratelabs/wazero" {
			v += " (wazero " + d.Version + ")"
		}
	}
	return v
}
