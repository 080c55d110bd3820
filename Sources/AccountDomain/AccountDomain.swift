// The account store on S3: filled in by the functions issue.
public enum AccountDomainPlaceholder {}
