package main

import (
	"fmt"
	"slices"
	"strings"
)

// maxSuggestions is how many near words a "did you mean" names at most.
const maxSuggestions = 5

// closest is the words of known within a typo's reach of word, closest
// first: those at most max(2, len(word)/3) edits away, ignoring case, and
// those that contain word. Ties keep known's order.
func closest(word string, known []string) []string {
	type scored struct {
		word string
		d    int
	}
	var near []scored
	lower := strings.ToLower(word)
	for _, k := range known {
		kl := strings.ToLower(k)
		d := editDistance(lower, kl)
		if d <= max(2, len(word)/3) || (lower != "" && strings.Contains(kl, lower)) {
			near = append(near, scored{k, d})
		}
	}
	slices.SortStableFunc(near, func(a, b scored) int { return a.d - b.d })
	out := make([]string, 0, min(len(near), maxSuggestions))
	for _, n := range near[:min(len(near), maxSuggestions)] {
		out = append(out, n.word)
	}
	return out
}

// didYouMean is what follows an unknown word's error: `; did you mean
// "check"?` naming the closest known words, or "" when none is close.
func didYouMean(word string, known []string) string {
	near := closest(word, known)
	if len(near) == 0 {
		return ""
	}
	return "; did you mean " + quoteAll(near, ", ") + "?"
}

// quoteAll quotes each word (escaping what a terminal would act on) and
// joins them with sep.
func quoteAll(words []string, sep string) string {
	q := make([]string, len(words))
	for i, w := range words {
		q[i] = fmt.Sprintf("%q", w)
	}
	return strings.Join(q, sep)
}

// editDistance is the Levenshtein distance between a and b, in bytes
// (commands and manifest names are ASCII).
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
