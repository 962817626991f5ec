package mcpgw

import (
	"fmt"
	"strings"
)

// uriMatcher says whether a URI is in a resource template's space, as the
// Go SDK's server decides it: the language of the regular expression its
// URI template library (github.com/yosida95/uritemplate) builds for the
// template, with no regular expression. That library's regexp of a
// template with many variables is past what Go's regexp compiles (it
// panics), and of a long one costs far more memory than its bytes; this
// one is a list of parts that share the template's bytes, run as an NFA
// whose cost is bounded by a step budget.
//
// A template is a sequence of literals and expressions. An expression
// {op v1,v2,...} matches, optionally, its operator's first character,
// then a run of its characters, then up to reps more runs each after its
// separator (reps is the count of variables less one, unbounded when one
// is exploded). A run's character is one of its class, or a %XX triplet.
type uriMatcher struct {
	parts  []uriPart
	states int // the NFA's states: a literal byte is one, an expression exprStates
}

// uriPart is a literal (lit not empty) or an expression.
type uriPart struct {
	lit            string
	base           int32 // the part's first state
	first, sep     byte  // an expression's; first is 0 for none
	class1, class2 uint8 // the classes of the first run and of the runs after a separator
	reps           int32 // runs after a separator allowed: -1 unbounded
}

// The sub-states of an expression: F waits for the first character, A is
// in the first run, B in a run after a separator; A1, A2, B1, B2 are
// inside a %XX triplet.
const (
	subF = iota
	subA
	subA1
	subA2
	subB
	subB1
	subB2
	exprStates
)

// The character classes of a run (runeClassToRegexp of the library): U
// is unreserved and ",", UN that and "=" (a named or exploded variable),
// UR unreserved and reserved (the + and # operators).
const (
	classU = iota
	classUN
	classUR
)

var uriClasses = func() (c [3][256]bool) {
	unreserved := "-._~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	reserved := "!#$&'()*+,/:;=?@[]"
	for _, b := range []byte(unreserved) {
		c[classU][b], c[classUN][b], c[classUR][b] = true, true, true
	}
	for _, b := range []byte(reserved) {
		c[classUR][b] = true
	}
	c[classU][','], c[classUN][','], c[classUN]['='] = true, true, true
	return c
}()

// maxMatcherStates bounds one template's matcher, and so the memory a
// match of it takes: a template past it is refused as malformed.
const maxMatcherStates = 1 << 16

// uriPartBytes is what one part costs beside the template's own bytes,
// counted in what a listing holds (listedTemplate.size).
const uriPartBytes = 32

// cost is what the matcher holds beyond the template's bytes.
func (m *uriMatcher) cost() int { return 64 + len(m.parts)*uriPartBytes }

// newURIMatcher builds the matcher of tmpl, a URI template the library
// has read (uritemplate.New): its syntax is checked there, so this reads
// only its structure.
func newURIMatcher(tmpl string) (*uriMatcher, error) {
	m := &uriMatcher{}
	for i := 0; i < len(tmpl); {
		open := strings.IndexByte(tmpl[i:], '{')
		if open != 0 {
			end := len(tmpl)
			if open > 0 {
				end = i + open
			}
			m.parts = append(m.parts, uriPart{lit: tmpl[i:end], base: int32(m.states)})
			m.states += end - i
			i = end
			if m.states > maxMatcherStates {
				return nil, fmt.Errorf("it is over gate's bound of %d matcher states (a literal byte is one, an expression %d)", maxMatcherStates, exprStates)
			}
			continue
		}
		closing := strings.IndexByte(tmpl[i:], '}')
		if closing < 0 {
			return nil, fmt.Errorf("an expression is not closed")
		}
		p, err := parseExpression(tmpl[i+1 : i+closing])
		if err != nil {
			return nil, err
		}
		p.base = int32(m.states)
		m.parts = append(m.parts, p)
		m.states += exprStates
		i += closing + 1
		if m.states > maxMatcherStates {
			return nil, fmt.Errorf("it is over gate's bound of %d matcher states (a literal byte is one, an expression %d)", maxMatcherStates, exprStates)
		}
	}
	return m, nil
}

// parseExpression reads an expression's operator and variables (the text
// between its braces).
func parseExpression(e string) (uriPart, error) {
	p := uriPart{sep: ','}
	named := false
	if e != "" {
		switch e[0] {
		case '+':
			p.class1, p.class2 = classUR, classUR
		case '#':
			p.first, p.class1, p.class2 = '#', classUR, classUR
		case '.':
			p.first, p.sep = '.', '.'
		case '/':
			p.first, p.sep = '/', '/'
		case ';':
			p.first, p.sep, named = ';', ';', true
		case '?':
			p.first, p.sep, named = '?', '&', true
		case '&':
			p.first, p.sep, named = '&', '&', true
		}
		if p.first != 0 || e[0] == '+' {
			e = e[1:]
		}
	}
	if e == "" {
		return p, fmt.Errorf("an expression has no variable")
	}
	vars := strings.Count(e, ",") + 1
	firstExploded := strings.HasSuffix(strings.SplitN(e, ",", 2)[0], "*")
	anyExploded := strings.Contains(e, "*")
	if p.class1 != classUR {
		if named || firstExploded {
			p.class1 = classUN
		}
		if named || anyExploded {
			p.class2 = classUN
		}
	}
	switch {
	case anyExploded:
		p.reps = -1
	case vars > 1:
		p.reps = int32(vars - 1)
	}
	return p, nil
}

// matchBudget is what matching one URI may take: steps are states
// visited, each a few instructions.
type matchBudget struct{ left int }

// matchScratch is the NFA's state sets, reused across the templates a URI
// is matched against.
type matchScratch struct {
	gen        []uint32 // the stamp of the list a state is in
	pos        []int32  // its place in that list
	entered    []uint32 // the stamp of the list a part was entered in
	stamp      uint32
	cur, next  []nfaEntry
	accept     bool
	budget     *matchBudget
	m          *uriMatcher
	outOfSteps bool
}

type nfaEntry struct {
	part, sub, count int32
}

// match says whether uri is in m's space; ok is false when the budget ran
// out before it could say.
func (m *uriMatcher) match(uri string, sc *matchScratch, budget *matchBudget) (matched, ok bool) {
	if len(sc.gen) < m.states {
		sc.gen, sc.pos, sc.stamp = make([]uint32, m.states), make([]int32, m.states), 0
		clear(sc.entered)
	}
	if len(sc.entered) < len(m.parts)+1 {
		sc.entered, sc.stamp = make([]uint32, len(m.parts)+1), 0
		clear(sc.gen)
	}
	sc.m, sc.budget, sc.outOfSteps = m, budget, false
	sc.cur, sc.next = sc.cur[:0], sc.next[:0]
	sc.newList()
	sc.enter(&sc.next, 0)
	sc.cur, sc.next = sc.next, sc.cur
	for i := 0; i < len(uri); i++ {
		if sc.outOfSteps {
			return false, false
		}
		if len(sc.cur) == 0 {
			return false, true // bytes are left, and no state to read them
		}
		sc.step(uri[i])
		sc.cur, sc.next = sc.next, sc.cur
	}
	if sc.outOfSteps {
		return false, false
	}
	return sc.accept, true
}

// newList starts the next list: its stamp marks the states in it.
func (sc *matchScratch) newList() {
	sc.stamp++
	if sc.stamp == 0 { // wrapped: no old stamp may look current
		clear(sc.gen)
		clear(sc.entered)
		sc.stamp = 1
	}
	sc.next, sc.accept = sc.next[:0], false
}

func (sc *matchScratch) spend() bool {
	sc.budget.left--
	if sc.budget.left < 0 {
		sc.outOfSteps = true
		return false
	}
	return true
}

// add puts state sub of part into list, keeping the lowest count of runs
// after a separator (fewer leaves more allowed).
func (sc *matchScratch) add(list *[]nfaEntry, part, sub, count int32) {
	if !sc.spend() {
		return
	}
	s := sc.m.parts[part].base + sub
	if sc.gen[s] == sc.stamp {
		if e := &(*list)[sc.pos[s]]; e.count > count {
			e.count = count
		}
		return
	}
	sc.gen[s], sc.pos[s] = sc.stamp, int32(len(*list))
	*list = append(*list, nfaEntry{part, sub, count})
	if sc.m.parts[part].lit == "" && (sub == subA || sub == subB) {
		// The end of a run may end the expression.
		sc.enter(list, part+1)
	}
}

// enter adds the states that begin part i: each expression may match
// nothing, so entering one enters the next too; past the last part the
// list accepts.
func (sc *matchScratch) enter(list *[]nfaEntry, i int32) {
	parts := sc.m.parts
	for ; int(i) < len(parts); i++ {
		if sc.entered[i] == sc.stamp || !sc.spend() {
			return
		}
		sc.entered[i] = sc.stamp
		p := &parts[i]
		if p.lit != "" {
			sc.add(list, i, 0, 0)
			return
		}
		if p.first != 0 {
			sc.add(list, i, subF, 0)
		} else {
			sc.add(list, i, subA, 0)
		}
	}
	if sc.entered[len(parts)] != sc.stamp {
		sc.entered[len(parts)] = sc.stamp
		sc.accept = true
	}
}

func isHex(b byte) bool {
	return '0' <= b && b <= '9' || 'a' <= b && b <= 'f' || 'A' <= b && b <= 'F'
}

// step reads b: the next list is what each state of the current one goes
// to on it.
func (sc *matchScratch) step(b byte) {
	sc.newList()
	list := &sc.next
	for _, e := range sc.cur {
		if !sc.spend() {
			return
		}
		p := &sc.m.parts[e.part]
		if p.lit != "" {
			if p.lit[e.sub] != b {
				continue
			}
			if int(e.sub)+1 == len(p.lit) {
				sc.enter(list, e.part+1)
			} else {
				sc.add(list, e.part, e.sub+1, 0)
			}
			continue
		}
		switch e.sub {
		case subF:
			if b == p.first {
				sc.add(list, e.part, subA, 0)
			}
		case subA, subB:
			class := p.class1
			pct := int32(subA1)
			if e.sub == subB {
				class, pct = p.class2, subB1
			}
			if uriClasses[class][b] {
				sc.add(list, e.part, e.sub, e.count)
			}
			if b == '%' {
				sc.add(list, e.part, pct, e.count)
			}
			if b == p.sep && p.reps != 0 && (p.reps < 0 || e.count < p.reps) {
				sc.add(list, e.part, subB, e.count+1)
			}
		case subA1, subB1:
			if isHex(b) {
				sc.add(list, e.part, e.sub+1, e.count)
			}
		case subA2, subB2:
			if isHex(b) {
				sc.add(list, e.part, e.sub-2, e.count)
			}
		}
	}
}
