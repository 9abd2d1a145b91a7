package client

import (
	"bytes"
	"testing"
)

// TestWriteAbove: output written while a line is edited is drawn above
// it, the prompt and line drawn again; while no line is edited it is
// written as it is; while held it waits, and past maxHeld is counted.
func TestWriteAbove(t *testing.T) {
	var term, rows bytes.Buffer
	e := &lineEditor{out: &term, width: func() int { return 80 }}
	if _, err := e.writeAbove(&rows, []byte("row> +I[1]\n")); err != nil || rows.String() != "row> +I[1]\n" || term.Len() != 0 {
		t.Fatalf("idle: %q to the writer, %q to the terminal (%v)", rows.String(), term.String(), err)
	}
	rows.Reset()
	e.active, e.prompt, e.buf, e.pos, e.rows = true, "P> ", []rune("SELECT"), 3, 1
	e.writeAbove(&term, []byte("a\nb\n"))
	// Clear the line, the rows with carriage returns, the prompt and line,
	// the cursor back to column 6.
	if want := "\r\x1b[2K" + "a\r\nb\r\n" + "\rP> SELECT\r\x1b[6C"; term.String() != want {
		t.Errorf("terminal got %q, want %q", term.String(), want)
	}
	e.active = false
	release := e.hold(&term)
	e.writeAbove(&rows, []byte("kept\n"))
	e.writeAbove(&rows, bytes.Repeat([]byte("x\n"), maxHeld/2))
	if rows.Len() != 0 {
		t.Fatalf("written while held: %q", rows.String())
	}
	term.Reset()
	release()
	if rows.String() != "kept\n" || term.String() != "[WARNING] 524288 more lines printed while the result was shown are left out.\n" {
		t.Errorf("released %q and %q", rows.String(), term.String())
	}
}
