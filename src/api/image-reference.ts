// Container image references as a container runtime normalises them: a kubelet may report
// `docker.io/library/nginx:latest` for a spec's `nginx`, so the two are compared in that form.

const DEFAULT_DOMAIN = 'docker.io';

/** The fully qualified reference: the default registry and `library/` for Docker Hub names, `:latest` without a tag or digest. */
// upstream: github.com/distribution/reference normalize.go ParseNormalizedNamed + TagNameOnly
export function normalizedImage(ref: string): string {
  const slash = ref.indexOf('/');
  const first = slash < 0 ? '' : ref.slice(0, slash);
  const hasDomain = first.includes('.') || first.includes(':') || first === 'localhost';
  let named = hasDomain ? ref : `${DEFAULT_DOMAIN}/${ref}`;
  if (!hasDomain && slash < 0) named = `${DEFAULT_DOMAIN}/library/${ref}`;
  const lastPart = named.slice(named.lastIndexOf('/') + 1);
  return named.includes('@') || lastPart.includes(':') ? named : `${named}:latest`;
}

/** The two references name the same image once normalised. */
export const sameImage = (a: string | undefined, b: string | undefined): boolean =>
  a !== undefined && b !== undefined && (a === b || normalizedImage(a) === normalizedImage(b));
