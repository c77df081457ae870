// Prints the estimated CEL cost of a CRD's x-kubernetes-validations rules as kube-apiserver 1.37 estimates
// it when the CRD is written (apiextensions' CRD validation: each rule's MaxCost times the cardinality of its
// node, from the maxItems/maxProperties above it or, under an unbounded list or map, from the 3 MiB request
// limit), against the per-rule and per-CRD limits. Reads the CRD as JSON on stdin; exits 1 when a limit is
// exceeded. Run by scripts/crd-cost.sh.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	apiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	"k8s.io/apiserver/pkg/cel/environment"
)

type ruleCost struct {
	path, rule        string
	cost, cardinality uint64
}

var envSet = environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())

func mul(a, b uint64) uint64 {
	if a != 0 && ^uint64(0)/a < b {
		return ^uint64(0)
	}
	return a * b
}

// walk descends the schema as apiextensions' validation does, costing the rules of every node.
func walk(s *apiextensions.JSONSchemaProps, ctx *validation.CELSchemaContext, path string, out *[]ruleCost) error {
	if len(s.XValidations) > 0 {
		ti, err := ctx.TypeInfo()
		if err != nil || ti == nil {
			return fmt.Errorf("%s: no CEL type for the node: %v", path, err)
		}
		res, err := cel.Compile(ti.Schema, ti.DeclType, celconfig.PerCallLimit, envSet, cel.NewExpressionsEnvLoader())
		if err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		for i, r := range res {
			if r.Error != nil {
				return fmt.Errorf("%s: rule %d: %v", path, i, r.Error)
			}
			card := r.MaxCardinality
			if ctx.MaxCardinality != nil {
				card = *ctx.MaxCardinality
			}
			*out = append(*out, ruleCost{path, s.XValidations[i].Rule, mul(r.MaxCost, card), card})
			if r.MessageExpression != nil {
				*out = append(*out, ruleCost{path, "messageExpression " + s.XValidations[i].MessageExpression, mul(r.MessageExpressionMaxCost, card), card})
			}
		}
	}
	for name, p := range s.Properties {
		p := p
		if err := walk(&p, ctx.ChildPropertyContext(&p, name), path+"."+name, out); err != nil {
			return err
		}
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Schema != nil {
		if err := walk(s.AdditionalProperties.Schema, ctx.ChildAdditionalPropertiesContext(s.AdditionalProperties.Schema), path+"[*]", out); err != nil {
			return err
		}
	}
	if s.Items != nil && s.Items.Schema != nil {
		return walk(s.Items.Schema, ctx.ChildItemsContext(s.Items.Schema), path+"[]", out)
	}
	return nil
}

func run() (bool, error) {
	data, err := io.ReadAll(os.Stdin)
	if err != nil {
		return false, err
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := json.Unmarshal(data, &crd); err != nil {
		return false, fmt.Errorf("stdin is not a CRD as JSON: %v", err)
	}
	within := true
	for _, v := range crd.Spec.Versions {
		var in apiextensions.JSONSchemaProps
		if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(v.Schema.OpenAPIV3Schema, &in, nil); err != nil {
			return false, err
		}
		var costs []ruleCost
		if err := walk(&in, validation.RootCELContext(&in), "", &costs); err != nil {
			return false, err
		}
		sort.Slice(costs, func(i, j int) bool { return costs[i].cost > costs[j].cost })
		var total uint64
		for _, c := range costs {
			total += c.cost
			within = within && c.cost <= validation.StaticEstimatedCostLimit
		}
		within = within && total <= validation.StaticEstimatedCRDCostLimit
		fmt.Printf("%s %s: %d rules, estimated cost %d of the CRD limit %d (%.1f%%); per-rule limit %d\n", crd.Name, v.Name, len(costs), total,
			validation.StaticEstimatedCRDCostLimit, 100*float64(total)/float64(validation.StaticEstimatedCRDCostLimit), validation.StaticEstimatedCostLimit)
		for i, c := range costs {
			if i >= 10 {
				break
			}
			rule := c.rule
			if len(rule) > 70 {
				rule = rule[:70] + "…"
			}
			fmt.Printf("  %10d (x%d)  %s  %s\n", c.cost, c.cardinality, c.path, rule)
		}
	}
	return within, nil
}

func main() {
	within, err := run()
	if err != nil {
		fmt.Fprintln(os.Stderr, "crd-cost:", err)
		os.Exit(2)
	}
	if !within {
		fmt.Fprintln(os.Stderr, "crd-cost: a limit is exceeded: kube-apiserver refuses this CRD")
		os.Exit(1)
	}
}
