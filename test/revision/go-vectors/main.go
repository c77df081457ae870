// Command go-vectors prints the revision test vectors that test/revision/*.test.ts check Ordinal against.
// It reproduces, with Go's own encoding/json, hash/fnv and apimachinery's rand.SafeEncodeString, what
// kube-controller-manager does in pkg/controller/statefulset getPatch and pkg/controller/history
// HashControllerRevision / ControllerRevisionName (v1.37.1), so the vectors do not come from Ordinal's code.
//
// Regenerate: cd test/revision/go-vectors && go run . > ../fixtures/go-vectors.json
package main

import (
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"runtime"
	"strconv"

	"k8s.io/apimachinery/pkg/util/rand"
)

type setCase struct {
	Name string          `json:"name"`
	File string          `json:"file"`
	Set  json.RawMessage `json:"set"`
}

type inputs struct {
	Sets            []setCase `json:"sets"`
	CollisionCounts []*int32  `json:"collisionCounts"`
	Values          []string  `json:"values"`
	Fnv             []string  `json:"fnv"`
	SafeEncode      []string  `json:"safeEncode"`
}

type hashOut struct {
	CollisionCount *int32 `json:"collisionCount"`
	Hash           string `json:"hash"`
	Name           string `json:"name"`
}

type setOut struct {
	Name   string    `json:"name"`
	Input  string    `json:"input"`
	Data   string    `json:"data"`
	Hashes []hashOut `json:"hashes"`
}

type pair struct {
	Input  string `json:"input"`
	Output string `json:"output"`
}

type output struct {
	GeneratedWith string   `json:"generatedWith"`
	Sets          []setOut `json:"sets"`
	Values        []pair   `json:"values"`
	Fnv           []pair   `json:"fnv"`
	SafeEncode    []pair   `json:"safeEncode"`
}

// getPatch is pkg/controller/statefulset/stateful_set_utils.go getPatch after runtime.Encode: the set's
// JSON decoded into a generic map, reduced to spec.template plus "$patch": "replace", re-encoded.
func getPatch(setJSON []byte) ([]byte, map[string]interface{}) {
	var raw map[string]interface{}
	must(json.Unmarshal(setJSON, &raw))
	objCopy := make(map[string]interface{})
	specCopy := make(map[string]interface{})
	spec := raw["spec"].(map[string]interface{})
	template := spec["template"].(map[string]interface{})
	specCopy["template"] = template
	template["$patch"] = "replace"
	objCopy["spec"] = specCopy
	patch, err := json.Marshal(objCopy)
	must(err)
	return patch, raw
}

// hashControllerRevision is pkg/controller/history HashControllerRevision for a revision with Data.Raw only.
func hashControllerRevision(raw []byte, probe *int32) string {
	hf := fnv.New32()
	if len(raw) > 0 {
		hf.Write(raw)
	}
	if probe != nil {
		hf.Write([]byte(strconv.FormatInt(int64(*probe), 10)))
	}
	return rand.SafeEncodeString(fmt.Sprint(hf.Sum32()))
}

// controllerRevisionName is pkg/controller/history ControllerRevisionName.
func controllerRevisionName(prefix string, hash string) string {
	if len(prefix) > 223 {
		prefix = prefix[:223]
	}
	return fmt.Sprintf("%s-%s", prefix, hash)
}

func must(err error) {
	if err != nil {
		panic(err)
	}
}

func setVector(c setCase, counts []*int32) setOut {
	text := []byte(c.Set)
	if c.File != "" {
		b, err := os.ReadFile(c.File)
		must(err)
		text = b
	}
	patch, raw := getPatch(text)
	name := raw["metadata"].(map[string]interface{})["name"].(string)
	out := setOut{Name: c.Name, Input: string(text), Data: string(patch)}
	for _, cc := range counts {
		h := hashControllerRevision(patch, cc)
		out.Hashes = append(out.Hashes, hashOut{CollisionCount: cc, Hash: h, Name: controllerRevisionName(name, h)})
	}
	return out
}

func main() {
	b, err := os.ReadFile("inputs.json")
	must(err)
	var in inputs
	must(json.Unmarshal(b, &in))
	out := output{GeneratedWith: runtime.Version() + ", k8s.io/apimachinery v0.37.1"}
	for _, c := range in.Sets {
		out.Sets = append(out.Sets, setVector(c, in.CollisionCounts))
	}
	for _, v := range in.Values {
		var x interface{}
		must(json.Unmarshal([]byte(v), &x))
		enc, err := json.Marshal(x)
		must(err)
		out.Values = append(out.Values, pair{Input: v, Output: string(enc)})
	}
	for _, s := range in.Fnv {
		hf := fnv.New32()
		hf.Write([]byte(s))
		out.Fnv = append(out.Fnv, pair{Input: s, Output: fmt.Sprint(hf.Sum32())})
	}
	for _, s := range in.SafeEncode {
		out.SafeEncode = append(out.SafeEncode, pair{Input: s, Output: rand.SafeEncodeString(s)})
	}
	res, err := json.MarshalIndent(out, "", "  ")
	must(err)
	fmt.Println(string(res))
}
