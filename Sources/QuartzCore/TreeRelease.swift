/// Citrine extension: frees the tree below `root`, whose nodes hold their children strongly,
/// without one nested `deinit` per level (a 100 000-deep chain would overflow the
/// stack). Called from `root`'s `deinit`: `takeChildren` empties a node's children and returns
/// them; a child this was the last reference to gives up its own into the same work list
/// before it goes, so every level is freed by this loop, and a child held elsewhere keeps its
/// subtree. Layers and their sublayers, views and their subviews, emitter cells and their
/// sub-cells.
package func _releaseTreeIteratively<Node: AnyObject>(below root: Node, takeChildren: (Node) -> [Node]) {
    var pending = takeChildren(root)
    while var node = pending.popLast() {
        guard isKnownUniquelyReferenced(&node) else { continue }
        pending += takeChildren(node)
    }
}
