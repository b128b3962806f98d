package main

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"
	"time"
)

// series is one contender's samples in a comparison (microseconds).
type series struct {
	Name           string    `json:"name"`
	SamplesUs      []float64 `json:"samplesUs"`
	RoundMediansUs []float64 `json:"roundMediansUs"`
	P50Us          float64   `json:"p50Us"`
	P90Us          float64   `json:"p90Us"`
	P99Us          float64   `json:"p99Us"`
	MinUs          float64   `json:"minUs"`
	MaxUs          float64   `json:"maxUs"`
}

// ratio is A/B over the rounds of one interleaved comparison: the median of
// the per-round ratios (round median of A ÷ round median of B), with the
// smallest and largest per-round ratio.
type ratio struct {
	A        string    `json:"a"`
	B        string    `json:"b"`
	Median   float64   `json:"median"`
	Min      float64   `json:"min"`
	Max      float64   `json:"max"`
	PerRound []float64 `json:"perRound"`
}

func (r ratio) String() string {
	if r.PerRound == nil {
		return "—"
	}
	return fmt.Sprintf("%.2f× (%.2f–%.2f)", r.Median, r.Min, r.Max)
}

// contender is one side of an interleaved comparison: do runs one event.
type contender struct {
	name string
	do   func() (time.Duration, error)
}

// comparison is the raw record of one interleaved measurement.
type comparison struct {
	ID       string    `json:"id"`
	Label    string    `json:"label"`
	Rounds   int       `json:"rounds"`
	PerRound int       `json:"perRound"`
	Series   []*series `json:"series"`
	Ratios   []ratio   `json:"ratios,omitempty"`
}

func (c *comparison) get(name string) *series {
	for _, s := range c.Series {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// interleave runs warm events on every contender, then rounds×perRound
// events each, alternating contenders event by event so that drift on a
// shared machine hits all of them alike. Each turn (one event of every
// contender) takes the contenders in a shuffled order (a fixed seed, so
// runs are repeatable): each contender follows every other about as often.
// A fixed cycle would put the same contender before each one at every
// turn, and an event runs slower after a contender that leaves the caches
// cold or its threads still busy (the Node runner after its reply).
func interleave(id, label string, cs []contender, warm, rounds, perRound int) (*comparison, error) {
	for _, c := range cs {
		for range warm {
			if _, err := c.do(); err != nil {
				return nil, err
			}
		}
	}
	cmp := &comparison{ID: id, Label: label, Rounds: rounds, PerRound: perRound}
	per := make([][]float64, len(cs))
	for i, c := range cs {
		cmp.Series = append(cmp.Series, &series{Name: c.name})
		_ = i
	}
	rng := rand.New(rand.NewPCG(uint64(len(cs)), uint64(perRound)))
	order := make([]int, len(cs))
	for range rounds {
		for i := range per {
			per[i] = per[i][:0]
		}
		for range perRound {
			for k := range order {
				order[k] = k
			}
			rng.Shuffle(len(order), func(a, b int) { order[a], order[b] = order[b], order[a] })
			for _, i := range order {
				d, err := cs[i].do()
				if err != nil {
					return nil, err
				}
				per[i] = append(per[i], us(d))
			}
		}
		for i, s := range cmp.Series {
			s.SamplesUs = append(s.SamplesUs, per[i]...)
			s.RoundMediansUs = append(s.RoundMediansUs, quantile(per[i], 0.5))
		}
	}
	for _, s := range cmp.Series {
		s.fill()
	}
	return cmp, nil
}

func (s *series) fill() {
	s.P50Us = quantile(s.SamplesUs, 0.5)
	s.P90Us = quantile(s.SamplesUs, 0.9)
	s.P99Us = quantile(s.SamplesUs, 0.99)
	s.MinUs = quantile(s.SamplesUs, 0)
	s.MaxUs = quantile(s.SamplesUs, 1)
}

// addRatio records A/B from the round medians.
func (c *comparison) addRatio(a, b string) ratio {
	sa, sb := c.get(a), c.get(b)
	r := ratio{A: a, B: b}
	for i := range sa.RoundMediansUs {
		r.PerRound = append(r.PerRound, sa.RoundMediansUs[i]/sb.RoundMediansUs[i])
	}
	r.Median = quantile(r.PerRound, 0.5)
	r.Min = quantile(r.PerRound, 0)
	r.Max = quantile(r.PerRound, 1)
	c.Ratios = append(c.Ratios, r)
	return r
}

func us(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

// quantile is the nearest-rank quantile of v (not modified).
func quantile(v []float64, q float64) float64 {
	if len(v) == 0 {
		return math.NaN()
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	i := int(math.Ceil(q*float64(len(s)))) - 1
	i = max(0, min(i, len(s)-1))
	return s[i]
}

// fmtUs prints a duration given in µs with a sensible unit.
func fmtUs(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case v >= 1e6:
		return fmt.Sprintf("%.2f s", v/1e6)
	case v >= 1e4:
		return fmt.Sprintf("%.1f ms", v/1e3)
	case v >= 1e3:
		return fmt.Sprintf("%.2f ms", v/1e3)
	default:
		return fmt.Sprintf("%.1f µs", v)
	}
}

// spread is "median (min–max)" of xs formatted with f.
func spread(xs []float64, f func(float64) string) string {
	return fmt.Sprintf("%s (%s–%s)", f(quantile(xs, 0.5)), f(quantile(xs, 0)), f(quantile(xs, 1)))
}
