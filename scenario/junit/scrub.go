package junit

// scrubModel passes every text the model holds through scrub before encoding. Scrubbing the
// encoded bytes alone is not enough: encoding/xml writes `"` as "&#34;", tab as "&#x9;" and,
// in attributes, newlines as "&#xA;", spellings a scrubber matching raw (or HTML-escaped)
// secrets can miss. The result is stripped again in case scrub's mask is not XML-safe.
func scrubModel(m *testSuites, scrub func([]byte) []byte) {
	s := func(p *string) { *p = xmlText(string(scrub([]byte(*p)))) }
	s(&m.Name)
	for i := range m.Suites {
		suite := &m.Suites[i]
		for _, p := range []*string{&suite.Name, &suite.Hostname, &suite.SystemOut, &suite.SystemErr} {
			s(p)
		}
		for j := range suite.Properties.Items {
			s(&suite.Properties.Items[j].Name)
			s(&suite.Properties.Items[j].Value)
		}
		for j := range suite.Cases {
			tc := &suite.Cases[j]
			s(&tc.Name)
			s(&tc.Classname)
			out := string(tc.SystemOut)
			s(&out)
			tc.SystemOut = textBlock(out)
			if tc.Skipped != nil {
				s(&tc.Skipped.Message)
			}
			for _, p := range []*problem{tc.Error, tc.Failure} {
				if p == nil {
					continue
				}
				s(&p.Message)
				s(&p.Type)
				body := string(p.Body)
				s(&body)
				p.Body = textBlock(body)
			}
		}
	}
}
