package client

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
)

// completeTimeout bounds the backend's answer to a Tab.
const completeTimeout = 2 * time.Second

// settingKeyPrefix matches the start of a SET or RESET statement up to a
// setting key being typed in quotes.
var settingKeyPrefix = regexp.MustCompile(`(?is)^\s*(SET|RESET)\s+'([^']*)$`)

// complete returns the completions, for Tab, of the word before the cursor
// at pos (in runes) of the line being edited, after the lines of the
// statement typed before it (typed): the setting keys inside the quotes
// after SET and RESET, elsewhere the backend's completions (keywords,
// tables and views, the columns of tables the statement names,
// functions), each starting with the word as typed (matchCase). head and
// tail are the line before and after the word.
func (c *Client) complete(ctx context.Context, typed, line string, pos int) (head string, completions []string, tail string) {
	runes := []rune(line)
	pos = max(0, min(pos, len(runes)))
	before, tail := string(runes[:pos]), string(runes[pos:])
	cctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	if m := settingKeyPrefix.FindStringSubmatch(typed + before); m != nil {
		settings, err := c.Backend.Settings(cctx)
		if err != nil {
			return before, nil, tail
		}
		prefix := m[2]
		for k := range settings {
			if strings.HasPrefix(k, prefix) {
				completions = append(completions, k)
			}
		}
		slices.Sort(completions)
		return strings.TrimSuffix(before, prefix), completions, tail
	}
	start := pos
	for start > 0 && (runes[start-1] == '_' || unicode.IsLetter(runes[start-1]) || unicode.IsDigit(runes[start-1])) {
		start--
	}
	statement := typed + before
	candidates, err := c.Backend.Complete(cctx, statement+tail, len([]rune(statement)))
	if err != nil {
		return before, nil, tail
	}
	word := string(runes[start:pos])
	for _, cand := range candidates {
		if cand = matchCase(word, cand); !slices.Contains(completions, cand) {
			completions = append(completions, cand)
		}
	}
	return string(runes[:start]), completions, tail
}

// matchCase returns a completion of word that starts with word as typed,
// so that the word is kept when several complete it: keywords and
// functions (which come upper case) in lower case after a lower-case
// word, other names with their start typed as the word has it.
func matchCase(word, completion string) string {
	if strings.HasPrefix(completion, word) {
		return completion
	}
	if word == strings.ToLower(word) && completion == strings.ToUpper(completion) {
		return strings.ToLower(completion)
	}
	w, c := []rune(word), []rune(completion)
	if len(c) < len(w) {
		return completion
	}
	return word + string(c[len(w):])
}
