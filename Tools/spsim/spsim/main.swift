import SPSim

print("spsim \(SPSimInfo.version)")
