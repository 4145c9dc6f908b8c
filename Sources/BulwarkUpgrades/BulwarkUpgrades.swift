/// The modification protocol and service adapters arrive with the upgrades issue.
public enum BulwarkUpgrades {}
