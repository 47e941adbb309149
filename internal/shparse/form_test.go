package shparse

import (
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// dump spells a form compactly for the table below: a statement as
// kind[flags](words){children}, a word as its value when static or
// text{expands}, a substitution as kind<statements>.
func dump(f *Form) string {
	var b strings.Builder
	for i, s := range f.Stmts {
		if i > 0 {
			b.WriteString("; ")
		}
		dumpStmt(&b, s)
	}
	return b.String()
}

func dumpStmt(b *strings.Builder, s *Stmt) {
	b.WriteString(s.Kind.String())
	if s.Name != "" {
		b.WriteString(" " + s.Name)
	}
	if s.Unknown != "" {
		b.WriteString(" <" + s.Unknown + ">")
	}
	if s.Background {
		b.WriteString(" &")
	}
	if s.Negated {
		b.WriteString(" !")
	}
	var parts []string
	for _, a := range s.Assigns {
		v := ""
		if a.Value != nil {
			v = dumpWord(a.Value)
		}
		switch {
		case a.Naked:
			parts = append(parts, "naked:"+a.Name+v)
		case a.Array:
			sub := ""
			for _, x := range a.Substs {
				sub += dumpSubst(x)
			}
			parts = append(parts, a.Name+"=array"+v+sub)
		default:
			parts = append(parts, a.Name+"="+v)
		}
	}
	for _, w := range s.Args {
		parts = append(parts, dumpWord(w))
	}
	for _, r := range s.Redirs {
		t := r.Fd + r.Op + dumpWord(r.Target)
		if r.Heredoc != nil {
			t += " hdoc:" + dumpWord(r.Heredoc)
		}
		parts = append(parts, t)
	}
	for _, sub := range s.Substs {
		parts = append(parts, dumpSubst(sub))
	}
	if s.Nested != nil {
		parts = append(parts, "nested "+s.Nested.Via+":"+s.Nested.Text)
	}
	if len(parts) > 0 {
		b.WriteString("(" + strings.Join(parts, " ") + ")")
	}
	if len(s.Children) > 0 {
		b.WriteString("{")
		for i, c := range s.Children {
			if i > 0 {
				b.WriteString(", ")
			}
			dumpStmt(b, c)
		}
		b.WriteString("}")
	}
}

func dumpWord(w *Word) string {
	s := w.Text
	if w.Static {
		s = w.Value
	}
	if len(w.Expands) > 0 {
		s += "{" + strings.Join(w.Expands, ",") + "}"
	}
	for _, sub := range w.Substs {
		s += dumpSubst(sub)
	}
	return s
}

func dumpSubst(s *Subst) string {
	var b strings.Builder
	b.WriteString(s.Kind + "<")
	for i, c := range s.Stmts {
		if i > 0 {
			b.WriteString("; ")
		}
		dumpStmt(&b, c)
	}
	b.WriteString(">")
	return b.String()
}

// TestForm reads tricky texts into the form: quotes, here-documents,
// substitutions, functions, coproc, arithmetic, [[ ]], case, and every
// redirect form.
func TestForm(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{`ls -la`, `command(ls -la)`},
		{`'r'm "a b" \c`, `command(rm a b c)`},
		{`echo "it's \"q\"" 'say "hi"'`, `command(echo it's "q" say "hi")`},
		{`echo $'\x41' $'\x{41}'`, `command(echo A $'\x{41}'{escape})`},
		{`cat *.go ~/x {a,b}`, `command(cat *.go{glob} ~/x{tilde} {a,b}{brace})`},
		{`echo $HOME "$(id -u)"`, `command(echo $HOME{variable} "$(id -u)"{substitution}$(...)<command(id -u)>)`},
		{"echo `whoami`", "command(echo `whoami`{substitution}`...`<command(whoami)>)"},
		{`echo ${x:-$(id)}`, `command(echo ${x:-$(id)}{variable}$(...)<command(id)>)`},
		{`echo $(( $(id -u) + 1 ))`, `command(echo $(( $(id -u) + 1 )){arithmetic}$((...))<>$(...)<command(id -u)>)`},
		{`diff <(ls a) >(cat)`, `command(diff <(ls a){substitution}<(...)<command(ls a)> >(cat){substitution}>(...)<command(cat)>)`},
		{"cat <<EOF\n$(id) $USER\nEOF\n", "command(cat <<EOF hdoc:$(id) $USER\nEOF{substitution,variable}$(...)<command(id)>)"},
		{"cat <<'EOF'\n$(id)\nEOF\n", "command(cat <<EOF hdoc:$(id)\n)"},
		{`a && b || c`, `or{and{command(a), command(b)}, command(c)}`},
		{`a | b |& c`, `pipe-all{pipe{command(a), command(b)}, command(c)}`},
		{`a; b & ! c`, `command(a); command &(b); command !(c)`},
		{`(cd x && ls) ; { pwd; }`, `subshell{and{command(cd x), command(ls)}}; block{command(pwd)}`},
		{`f() { f | f & }; f`, `function f{block{pipe &{command(f), command(f)}}}; command(f)`},
		{`coproc N { ls; }`, `coproc N{block{command(ls)}}`},
		{`(( i = $(id -u) ))`, `arithmetic($(...)<command(id -u)>)`},
		{`[[ -f $(pwd)/x && $a == b ]]`, `test($(...)<command(pwd)>)`},
		{`case $x in $(id)) rm y;; *) ls;; esac`, `case($x{variable} $(...)<command(id)>){command(rm y), command(ls)}`},
		{`for f in a "$b"; do rm $f; done`, `for f(a "$b"{variable}){command(rm $f{variable})}`},
		{`for ((i=$(id);i<2;i++)); do :; done`, `for($(...)<command(id)>){command(:)}`},
		{`if a; then b; elif c; then d; else e; fi`, `if{command(a), command(b), command(c), command(d), command(e)}`},
		{`while a; do b; done; until c; do d; done`, `while{command(a), command(b)}; until{command(c), command(d)}`},
		{`time ls; let x=$(id)`, `time{command(ls)}; let($(...)<command(id)>)`},
		{`A=1 B=$(id) env`, `command(A=1 B=$(id){substitution}$(...)<command(id)> env)`},
		{`x=1; y+=2; z=(a b); w[1]=c`, `command(x=1); command(y=2); command(z=array); command(w=arrayc)`},
		{`z=(a $(rm x)); w[$(id)]=1`, `command(z=array$(...)<command(rm x)>); command(w=array1$(...)<command(id)>)`},
		{`export A=1 -x b; local c`, `declare export(A=1 naked:-x naked:b); declare local(naked:c)`},
		{`a > f >> g < h <> i >| j &> k &>> l 2>&1 <<< w`, `command(a >f >>g <h <>i >|j &>k &>>l 2>&1 <<<w)`},
		{`exec {fd}>x 3<&-`, `command(exec {fd}>x 3<&-)`},
		{`bash -lc 'rm -rf ~'`, `command(bash -lc rm -rf ~ nested -c:rm -rf ~)`},
		{`eval -- ls "-l"`, `command(eval -- ls -l nested eval:ls -l)`},
		{`find . | xargs -0 sh -c 'cat "$@"' _`, `pipe{command(find .), command(xargs -0 sh -c cat "$@" _ nested -c:cat "$@")}`},
		{`sh script.sh`, `command(sh script.sh)`},
		{`env A=1 nice bash -lc 'ls' "$x"`, `command(env A=1 nice bash -lc ls "$x"{variable} nested -c:ls)`},
		{`eval ls "$x"`, `command(eval ls "$x"{variable})`},
		{`trap 'rm -rf ~' EXIT`, `command(trap rm -rf ~ EXIT nested trap:rm -rf ~)`},
		{`script -q -c 'ls | xargs cat' /dev/null`, `command(script -q -c ls | xargs cat /dev/null nested script:ls | xargs cat)`},
	} {
		got := dump(Of(tc.text).Form())
		if got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.text, got, tc.want)
		}
	}
}

// TestFormUnknownAsks: a form that cannot say all of its text says so,
// never leaves it out.
func TestFormUnknownAsks(t *testing.T) {
	deep := strings.Repeat("( ", MaxFormDepth+3) + "ls" + strings.Repeat(" )", MaxFormDepth+3)
	many := strings.Repeat("a;", MaxFormNodes+1)
	for _, text := range []string{"ls &&", "echo 'x", deep, many} {
		f := Of(text).Form()
		if f.Complete() {
			t.Errorf("%.40q: the form says it holds the whole text", text)
		}
	}
	if f := Of(deep).Form(); !slices.ContainsFunc(slices.Collect(f.All()), func(s *Stmt) bool { return s.Kind == KindUnknown }) {
		t.Error("a statement past the depth bound is not of kind unknown")
	}
	if f := Of("ls | wc -l").Form(); !f.Complete() {
		t.Errorf("a plain pipe is not complete: %s", f.Err)
	}
}

// TestFormOnce: the form is built once per Script, and a nested text's
// Script is the request's parse of it.
func TestFormOnce(t *testing.T) {
	s := Of(`bash -c 'ls -l'`)
	first := s.Form()
	if again := s.Form(); first != again {
		t.Error("the form was built twice")
	}
	n := s.Form().Stmts[0].Nested
	if n == nil || n.Script() != s.Of("ls -l") {
		t.Fatalf("the nested text is not the request's Script: %+v", n)
	}
	if got := dump(n.Script().Form()); got != "command(ls -l)" {
		t.Errorf("nested form: %s", got)
	}
}

// TestFormAll visits every statement: substitutions in words, redirects,
// assignments, here-documents and clauses, and function bodies.
func TestFormAll(t *testing.T) {
	text := "A=$(a) b $(c) > $(d) <<E\n$(e)\nE\n[[ $(f) ]]; g() { h; }"
	var got []string
	for s := range Of(text).Form().All() {
		if s.Kind == KindCall && len(s.Args) > 0 {
			got = append(got, s.Args[0].Value)
		}
	}
	if want := "b a c d e f h"; strings.Join(got, " ") != want {
		t.Errorf("All visited %q, want %q", got, want)
	}
	n := 0
	for _, r := range Of("a > x 2>&1 | b < y").Form().Redirs() {
		n++
		_ = r
	}
	if n != 3 {
		t.Errorf("Redirs visited %d, want 3", n)
	}
}

// TestFormWords visits every word, a clause's and an array's included:
// "is every word literal" is asked of all of them.
func TestFormWords(t *testing.T) {
	text := "[[ -f x ]]; case y in *.go) :;; esac; a=(b c); (( n + 1 )); coproc N { ls; }; cat <<E > out\nbody\nE\n"
	var got []string
	for w := range Of(text).Form().Words() {
		got = append(got, strings.TrimSpace(w.Text))
	}
	want := "x y *.go : b c n 1 N ls cat E body\nE out"
	if strings.Join(got, " ") != want {
		t.Errorf("Words: %q\nwant %q", strings.Join(got, " "), want)
	}
}

// TestFormHeredocBody: a here-document's body as written, only when bash
// expands nothing in it; the delimiter's quoting says whether it would.
func TestFormHeredocBody(t *testing.T) {
	for _, tc := range []struct {
		text, body string
		ok, quoted bool
	}{
		{"cat <<'E'\n$x \\n\nE\n", "$x \\n\n", true, true},
		{"cat <<\"E\"\nplain\nE\n", "plain\n", true, true},
		{"cat <<E\n$x\nE\n", "", false, false},
		{"cat <<'E'x\nb\nEx\n", "b\n", true, false},
	} {
		r := Of(tc.text).Form().Stmts[0].Redirs[0]
		body, ok := r.Body()
		if body != tc.body || ok != tc.ok || r.Target.Quoted() != tc.quoted {
			t.Errorf("%q: body %q %v, quoted %v; want %q %v %v", tc.text, body, ok, r.Target.Quoted(), tc.body, tc.ok, tc.quoted)
		}
	}
}

// formSeeds are texts whose commands hide in every place the tree has.
var formSeeds = []string{
	"ls -la", "a && b || c | d |& e; f & ! g", "x=$(a) y=`b` c $(d $(e)) <(f) >(g)",
	"echo ${x:-$(a)} $(( $(b) + 1 )) \"$(c)\"", "cat <<E > $(a)\n$(b)\nE\n", "[[ $(a) == $(b) ]] && (( $(c) ))",
	"case $(a) in $(b)) c;; *) d;; esac", "for x in $(a); do b; done; for ((i=$(c);;)); do d; done",
	"f() { a | f & }; f", "coproc N { a; }; time b; let x=$(c)", "export A=$(a) B; declare -a z=($(b) c)",
	"if a; then b; elif c; then d; else e; fi; while f; do g; done; until h; do i; done",
	"{ a; } > o; (b) 2>&1; exec {fd}>x", "eval 'a | b'; bash -lc 'c'; env sh -c 'd' _",
}

// checkFormSeesEveryCommand: a complete form holds a simple command for
// every command of the tree and a redirect for every redirect, wherever
// the tree holds them, and Events visits them in the tree's order (the
// form is where the layers look; a command it left out would be judged
// by none of them).
func checkFormSeesEveryCommand(t *testing.T, text string) {
	s := Of(text)
	if s.Err != nil {
		return
	}
	f := s.Form()
	if !f.Complete() {
		return
	}
	var tree []string
	for n := range syntax.Preorder(s.File) {
		switch n := n.(type) {
		case *syntax.CallExpr:
			var ws []string
			for _, w := range n.Args {
				ws = append(ws, text[w.Pos().Offset():w.End().Offset()])
			}
			tree = append(tree, "command "+strings.Join(ws, " "))
		case *syntax.Redirect:
			tree = append(tree, "redirect "+text[n.Pos().Offset():n.End().Offset()])
		}
	}
	var form []string
	for st, r := range f.Events() {
		switch {
		case r != nil:
			form = append(form, "redirect "+r.Text)
		case st.Kind == KindCall && (len(st.Args) > 0 || len(st.Assigns) > 0):
			var ws []string
			for _, w := range st.Args {
				ws = append(ws, w.Text)
			}
			form = append(form, "command "+strings.Join(ws, " "))
		}
	}
	if strings.Join(tree, "\n") != strings.Join(form, "\n") {
		t.Errorf("%q: the tree holds, in order:\n%s\nthe form:\n%s", text, strings.Join(tree, "\n"), strings.Join(form, "\n"))
	}
	// Events and All visit the same statements.
	all := 0
	for st := range f.All() {
		if st.Kind == KindCall && (len(st.Args) > 0 || len(st.Assigns) > 0) {
			all++
		}
		all += len(st.Redirs)
	}
	if all != len(form) {
		t.Errorf("%q: All visits %d commands and redirects, Events %d", text, all, len(form))
	}
}

func TestFormSeesEveryCommand(t *testing.T) {
	for _, text := range formSeeds {
		checkFormSeesEveryCommand(t, text)
	}
}

func FuzzForm(f *testing.F) {
	for _, text := range formSeeds {
		f.Add(text)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if len(text) > 1<<12 {
			return
		}
		checkFormSeesEveryCommand(t, text)
	})
}

// TestFormOfPartialParse: a text that does not parse keeps the
// statements the parser read, and says it did not parse.
func TestFormOfPartialParse(t *testing.T) {
	f := Of("export IF\\S=,; X=.env,a; cat $X").Form()
	if f.Err == "" || f.Complete() {
		t.Fatalf("a text that does not parse reads as complete: %q", f.Err)
	}
	if f.Unknown {
		t.Error("a parse error is taken for a statement the form left out")
	}
}

// TestFormReach: the form says how far each assignment reaches as bash
// scopes it, what arithmetic and an expansion's default assign, and
// where its text leaves what it can say of its words.
func TestFormReach(t *testing.T) {
	for _, c := range []struct {
		text string
		want []Reach // of each assignment, in the order [Form.All] meets them
	}{
		{"X=1", []Reach{ReachRest}},
		{"X=1 cmd", []Reach{ReachCommand}},
		{"X=1 >f", []Reach{ReachRest}},
		{"export X=1", []Reach{ReachRest}},
		{"X=1 && Y=2", []Reach{ReachRest, ReachMaybe}},
		{"X=1 || Y=2", []Reach{ReachRest, ReachMaybe}},
		{"true | X=1", []Reach{ReachInside}},
		{"(X=1)", []Reach{ReachInside}},
		{"{ X=1; }", []Reach{ReachRest}},
		{"X=1 &", []Reach{ReachInside}},
		{"echo $(X=1)", []Reach{ReachInside}},
		{"if true; then X=1; fi", []Reach{ReachMaybe}},
		{"f() { X=1; }", []Reach{ReachMaybe}},
		{"for i in a; do X=1; done", []Reach{ReachMaybe}},
		{"true && (X=1)", []Reach{ReachInside}},
		{"(true && X=1)", []Reach{ReachInside}},
	} {
		var got []Reach
		for st := range Of(c.text).Form().All() {
			for _, a := range st.Assigns {
				got = append(got, a.Reach)
			}
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: reaches %v, want %v", c.text, got, c.want)
		}
	}
	for text, want := range map[string][]string{
		"let X=1 Y++":              {"X", "Y"},
		"(( a[1]+=2 ))":            {"a"},
		"echo $((X=1)) $((Y==1))":  {"X"},
		": ${X:=/} ${Y=/} ${Z:-/}": {"X", "Y"},
		"X=1; echo $X":             nil,
	} {
		if got := Of(text).Form().Sets; !slices.Equal(got, want) {
			t.Errorf("%s: sets %v, want %v", text, got, want)
		}
	}
	for text, want := range map[string]bool{`cat $'\x{2e}env'`: true, `cat $'\x2eenv'`: false, `cat .env`: false} {
		f := Of(text).Form()
		if (f.Escape != "") != want || !f.Parsed {
			t.Errorf("%s: escape %q parsed %v, want an escape: %v", text, f.Escape, f.Parsed, want)
		}
	}
}
