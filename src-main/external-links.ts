/** Links the window may hand to the user's browser: the AWS pages derivations cite, nothing else. */

/** Whether a URL is an AWS documentation or pricing page over https, which a derivation may cite. */
export function isAwsDocumentation(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === 'https:' && (u.hostname === 'docs.aws.amazon.com' || u.hostname === 'aws.amazon.com') && u.username === '' && u.password === '' && u.port === '';
  } catch {
    return false;
  }
}
