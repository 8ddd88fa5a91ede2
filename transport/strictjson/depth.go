package strictjson

import "fmt"

// CheckDepth refuses data whose arrays and objects nest more than budgets.JSONNesting
// levels deep. It is one iterative pass that tracks only string state and depth, so it is
// safe on any input and belongs before every parser that recurses (gjson, a hand-written
// router): without it, a 16 MiB line of '[' ends a Go program with an uncatchable stack
// overflow. It checks nothing else; the strict decode that follows does.
func CheckDepth(data []byte) error {
	depth := 0
	inString := false
	for i := 0; i < len(data); i++ {
		c := data[i]
		if inString {
			switch c {
			case '\\':
				i++ // the escaped byte cannot end the string
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			depth++
			if depth > maxDepth {
				return &Error{Expected: fmt.Sprintf("at most %d levels of nesting", maxDepth),
					Message: fmt.Sprintf("nested too deeply (more than %d levels of arrays and objects) at offset %d", maxDepth, i)}
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		}
	}
	return nil
}
