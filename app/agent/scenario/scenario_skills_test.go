package scenario

import (
	"slices"
	"testing"
)

func TestSkillsAnyRequestEnables(t *testing.T) {
	for _, tt := range []struct {
		name string
		sc   *Scenario
		want []string
	}{
		{"no scenario", nil, nil},
		{"every skill", &Scenario{Requests: []Request{{EnabledSkills: []string{"a"}}}}, nil},
		{"none", &Scenario{EnabledSkills: []string{}}, []string{}},
		{"the scenario's and each request's", &Scenario{EnabledSkills: []string{"a"}, Requests: []Request{{EnabledSkills: []string{"b"}}, {}}}, []string{"a", "b"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.sc.SkillsAnyRequestEnables()
			if (got == nil) != (tt.want == nil) || !slices.Equal(got, tt.want) {
				t.Errorf("got %#v, want %#v", got, tt.want)
			}
		})
	}
}
