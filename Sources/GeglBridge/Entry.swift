// Each operation protocol's `registration`: the op's static functions wrapped in closures of the
// base class's shape. The generic code is specialised per op here, so the per-tile cost of going
// through the registration is one closure call and one cast of the prepared value.

extension OperationDefinition {
    fileprivate static func makeRegistration(_ base: Base) -> OperationRegistration {
        var described = info
        described.properties = Properties.specs
        let r = OperationRegistration(info: described, base: base)
        r.threading = threading
        r.cachedRegion = cachedRegion
        r.prepare = { prepare($0) }
        r.passesThrough = { passesThrough(unwrap($0)) }
        return r
    }

    @inline(__always)
    fileprivate static func unwrap(_ prepared: Any) -> Prepared {
        // The value was built by this type's own prepare; nothing else can be stored for it.
        prepared as! Prepared
    }
}

extension PointFilterOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.pointFilter)
        r.processPoint = { p, input, output, count, roi in
            process(unwrap(p), input: input.assumingMemoryBound(to: Float.self),
                    output: output.assumingMemoryBound(to: Float.self), count: count, roi: roi)
        }
        return r
    }
}

extension PointComposerOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.pointComposer)
        r.processPointComposer = { p, input, aux, output, count, roi in
            process(unwrap(p), input: input.assumingMemoryBound(to: Float.self),
                    aux: aux?.assumingMemoryBound(to: Float.self),
                    output: output.assumingMemoryBound(to: Float.self), count: count, roi: roi)
        }
        return r
    }
}

extension PointRenderOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.pointRender)
        r.boundingBox = { boundingBox($0) }
        r.processPointRender = { p, output, count, roi in
            process(unwrap(p), output: output.assumingMemoryBound(to: Float.self), count: count, roi: roi)
        }
        return r
    }
}

extension AreaFilterOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.areaFilter)
        r.processFilter = { p, input, output, roi in process(unwrap(p), input: input, output: output, roi: roi) }
        return r
    }
}

extension FilterOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.filter)
        r.boundingBox = { boundingBox($0) }
        r.requiredForOutput = { context, _, roi in requiredForOutput(context, roi: roi) }
        r.processFilter = { p, input, output, roi in process(unwrap(p), input: input, output: output, roi: roi) }
        return r
    }
}

extension ComposerOperation {
    public static var registration: OperationRegistration {
        let r = makeRegistration(.composer)
        r.boundingBox = { boundingBox($0) }
        r.requiredForOutput = { context, pad, roi in requiredForOutput(context, pad: pad, roi: roi) }
        r.processComposer = { p, input, aux, output, roi in
            process(unwrap(p), input: input, aux: aux, output: output, roi: roi)
        }
        return r
    }
}

extension MetaOperation {
    public static var registration: OperationRegistration {
        var described = info
        described.properties = Properties.specs
        let r = OperationRegistration(info: described, base: .meta)
        r.metaAttach = { attach($0) }
        r.metaUpdate = { update($0, $1.typed(Properties.self)) }
        return r
    }
}
