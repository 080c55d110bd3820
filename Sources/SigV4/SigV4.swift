// SigV4 request signing: filled in by the AWS issue.
public enum SigV4Placeholder {}
