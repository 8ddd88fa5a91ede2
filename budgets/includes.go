package budgets

// Scenario fragments (a scenario's {"include": …} entries): how deep includes may nest.
// Cycles are refused whatever the depth; the bound keeps a chain of distinct files (or a
// fragment included twice at every level, which doubles the operations each time) from
// growing a scenario past what anyone reads. The expanded scenario still holds at most
// ScenarioOps operations.
const IncludeDepth = 8
