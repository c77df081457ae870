module ordinal.dev/test/revision/go-vectors

go 1.26.0

require k8s.io/apimachinery v0.37.1
