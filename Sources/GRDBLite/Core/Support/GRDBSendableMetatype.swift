/// GRDB's synonym for the standard `SendableMetatype` protocol, for code
/// that spells its constraints with it (`T: GRDBSendableMetatype`).
public typealias GRDBSendableMetatype = SendableMetatype
