// ID-token verification: filled in by the token issue.
public enum TokenVerificationPlaceholder {}
