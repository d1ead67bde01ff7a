package sessions

// node is a record of the conversation tree (parentUuid), for requests
// rebuilt from the records.
type node struct {
	parent string
	entry  *entry
	msgID  string // an assistant record: its message's id
	at     int    // its place in its conversation's chain, -1 off it
	conv   *conversation
}

// tree is the records of a transcript whose records name their parent
// (parentUuid: Claude Code's, Qwen Code's), each conversation's chain the
// path the last rebuilt request took: a request on the same path adds only
// what is new to it.
type tree struct {
	nodes  map[string]*node
	chains map[*conversation][]*node
}

func newTree() tree {
	return tree{nodes: map[string]*node{}, chains: map[*conversation][]*node{}}
}

// chain is the list of entries on the path from the root to uuid, the
// conversation's chain cut where the path leaves it.
func (t *tree) chain(cv *conversation, uuid string) []*entry {
	var up []*node
	seen := map[*node]bool{}
	nd := t.nodes[uuid]
	for nd != nil && !(nd.conv == cv && nd.at >= 0) && !seen[nd] {
		seen[nd] = true
		up = append(up, nd)
		nd = t.nodes[nd.parent]
	}
	ch := t.chains[cv]
	keep := 0
	if nd != nil && nd.conv == cv && nd.at >= 0 {
		keep = nd.at + 1
	}
	for _, gone := range ch[keep:] {
		gone.at = -1
	}
	ch = ch[:keep]
	for i := len(up) - 1; i >= 0; i-- {
		up[i].at, up[i].conv = len(ch), cv
		ch = append(ch, up[i])
	}
	t.chains[cv] = ch
	list := make([]*entry, 0, len(ch))
	for _, x := range ch {
		if x.entry != nil {
			list = append(list, x.entry)
		}
	}
	return list
}
