// The client core speaks in the shared models: whoever imports it gets them too.
@_exported import FakeNFTModels
