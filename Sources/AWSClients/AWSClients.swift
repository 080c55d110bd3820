// S3 and STS clients: filled in by the AWS issue.
public enum AWSClientsPlaceholder {}
