package main

import (
	"bufio"
	"io"
	"strings"
	"unicode/utf8"
)

// table lays rows of cells out in columns as text/tabwriter does with
// padding 2 and spaces (gatectl's one layout): every cell but a row's
// last is padded to its column's widest cell, counted in runes, plus two
// spaces; a row's last cell is written as it is. Writing rows of cells
// directly, instead of formatting tab-separated lines for tabwriter to
// split again, saves a large check most of its table's time.
//
// Cells must already be escaped for the terminal (safetext.Terminal):
// a tab or newline in a cell would break the layout, as with tabwriter.
type table struct {
	rows   [][]string
	widths []int
	wrap   int // the last column's width after fit; 0: unbounded
}

// add appends a row.
func (t *table) add(cells ...string) {
	for i, c := range cells[:len(cells)-1] {
		n := utf8.RuneCountInString(c)
		if i == len(t.widths) {
			t.widths = append(t.widths, 0)
		}
		t.widths[i] = max(t.widths[i], n)
	}
	t.rows = append(t.rows, cells)
}

// minFitted is the fewest columns fit leaves a clipped cell, or a
// wrapped last column.
const minFitted = 12

// fit makes every row at most width columns. The last column (a reason:
// what the reader came for) is given up to half the width, taken from the
// widest of the middle columns, each kept at least minFitted wide and its
// cells clipped with an ellipsis; a last cell longer than the room left
// is wrapped onto lines of its own under its column, never cut. The first
// column (a name) is never clipped: a row must say whose it is. 0 leaves
// every row whole. It reports whether it clipped a cell.
func (t *table) fit(width int) (clipped bool) {
	if width <= 0 || len(t.widths) == 0 {
		return false
	}
	before := func() int {
		n := 0
		for _, w := range t.widths {
			n += w + 2
		}
		return n
	}
	lastWidest := 0
	for _, row := range t.rows {
		lastWidest = max(lastWidest, utf8.RuneCountInString(row[len(row)-1]))
	}
	want := min(lastWidest, max(minFitted, width/2))
	for before()+want > width {
		widest := 0
		for i := 1; i < len(t.widths); i++ {
			if t.widths[i] > minFitted && (widest == 0 || t.widths[i] > t.widths[widest]) {
				widest = i
			}
		}
		if widest == 0 {
			break
		}
		t.widths[widest] = max(minFitted, t.widths[widest]-(before()+want-width))
	}
	t.wrap = max(width-before(), minFitted)
	for _, row := range t.rows {
		for i, c := range row[:len(row)-1] {
			row[i] = clipColumns(c, t.widths[i])
			clipped = clipped || row[i] != c
		}
	}
	return clipped
}

// clipColumns is s cut to at most n runes, its last one an ellipsis when
// it was cut. A cell is escaped for the terminal, so a rune is a column.
func clipColumns(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)
	return string(runes[:n-1]) + "…"
}

// wrapColumns splits s into lines of at most n runes, each broken after
// its last space when it has one past its first half, else at n.
func wrapColumns(s string, n int) []string {
	runes := []rune(s)
	var lines []string
	for len(runes) > n {
		cut := n
		for i := n; i > n/2; i-- {
			if runes[i-1] == ' ' {
				cut = i
				break
			}
		}
		lines = append(lines, strings.TrimRight(string(runes[:cut]), " "))
		runes = runes[cut:]
	}
	return append(lines, string(runes))
}

// spaces is what pad writes from: a row's padding written from it costs no
// allocation (strings.Repeat made one a cell: a fifth of writing a 10,000-row
// table).
const spaces = "                                                                "

// pad writes n spaces.
func pad(bw *bufio.Writer, n int) {
	for n > 0 {
		k := min(n, len(spaces))
		bw.WriteString(spaces[:k])
		n -= k
	}
}

// write writes the table to w.
func (t *table) write(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, row := range t.rows {
		last := len(row) - 1
		for i, c := range row[:last] {
			bw.WriteString(c)
			pad(bw, t.widths[i]+2-utf8.RuneCountInString(c))
		}
		if t.wrap == 0 {
			bw.WriteString(row[last])
			bw.WriteByte('\n')
			continue
		}
		for j, line := range wrapColumns(row[last], t.wrap) {
			if j > 0 {
				for _, w := range t.widths {
					pad(bw, w+2)
				}
			}
			bw.WriteString(line)
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}
