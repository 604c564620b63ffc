function helper() { return inner(); function inner() { return 1; } }
function unused() { function nestedUnused() { return 2; } var arrow = () => 3; return nestedUnused() + arrow(); }
