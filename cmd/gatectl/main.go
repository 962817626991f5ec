// Command gatectl runs gate from the shell: it checks which of a
// manifest's tools can run, prints the schema a model would be offered,
// and runs and inspects probes.
//
//	gatectl check -m gate.toml
//	gatectl schema -m gate.toml --format anthropic
//	gatectl probe run env:HOME
//	gatectl probe run ./probes/db.wasm --env DATABASE_URL --dial localhost:5432
//	gatectl probe inspect ./probes/db.wasm
//
// Exit codes: 0 available (or success), 1 unavailable, 2 bad input,
// 3 a probe error.
package main

import "os"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}
